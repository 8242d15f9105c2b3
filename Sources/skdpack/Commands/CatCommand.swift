import ArgumentParser
import HLS

struct CatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Parse a playlist fully and write it back to standard output, byte for byte.",
        discussion: """
            Findings go to standard error; the exit status is 1 if any has error severity.

            Examples:
              skdpack cat examples/library/clear-title/video-720p.m3u8
              curl -s https://example.com/master.m3u8 | skdpack cat - > /dev/null
            """
    )

    @Argument(help: "A playlist file, or - for standard input.")
    var path: String

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        var options = ReaderOptions()
        try reportingUsage { options = try limits.applied(to: options) }
        try Self.run(path: path, options: options)
    }

    /// The path of `skdpack cat PATH`, the whole command line, or `nil` when there is more to it (options,
    /// help, a misspelling): ArgumentParser then parses it. Reading a plain command line without
    /// ArgumentParser saves its reflection over the command's types, 11 of the 14 million instructions
    /// that `cat` of a one-line playlist takes.
    static func plainPath(_ arguments: [String]) -> String? {
        guard arguments.count == 2, arguments[0] == "cat" else { return nil }
        let path = arguments[1]
        return path == "-" || !path.hasPrefix("-") ? path : nil
    }

    /// Reads `path` with `options` and writes it to standard output; findings go to standard error.
    static func run(path: String, options: ReaderOptions) throws {
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        let reader: PlaylistReader
        var source: (any ByteSource)?
        defer { source.map(FileDescriptorSource.finish) }
        do {
            source = try FileDescriptorSource.openForStreaming(path: path)
            // A pipe may be long; a small file is written faster without a second thread.
            let background = path == "-" || FileDescriptorSource.isLarge(source!)
            var output = OutputSink(fd: 1, path: "<stdout>", background: background)
            reader = PlaylistReader(source: source!, path: path, options: options)
            reader.onDiagnostic = printer.print
            while let item = try reader.nextItem() {
                switch item {
                case .run(let run): try output.write(run.bytes)
                case .line(let line): try output.write(line.raw)
                }
            }
            try output.flush()
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
        if reader.errorCount > 0 { throw ExitStatus.findings }
    }
}
