import ArgumentParser
import HLS

struct CatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Parse a playlist fully and write it back to standard output, byte for byte.",
        discussion: """
            Findings go to standard error; the exit status is 1 if any has error severity.

            Examples:
              skdpack cat examples/library/clear/index.m3u8
              curl -s https://example.com/master.m3u8 | skdpack cat - > /dev/null
            """
    )

    @Argument(help: "A playlist file, or - for standard input.")
    var path: String

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        var options = ReaderOptions()
        try reportingUsage { options = try limits.applied(to: options) }
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
            printer.print(message: "skdpack: \(error)")
            throw ExitStatus.failure
        }
        if reader.errorCount > 0 { throw ExitStatus.findings }
    }
}
