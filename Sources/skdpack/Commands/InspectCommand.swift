import ArgumentParser
import FoundationEssentials
import HLS

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the typed view of a playlist as JSON: tags, segments with their keys, variants, findings.",
        discussion: """
            Examples:
              skdpack inspect examples/library/multi-drm/video.m3u8
              skdpack inspect master.m3u8 | jq '.variants[].stream.uri'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case json }

    @Argument(help: "A playlist file, or - for standard input.")
    var path: String

    @Option(help: "Output format.")
    var format: Format = .json

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        var options = ReaderOptions()
        try reportingUsage { options = try limits.applied(to: options) }
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        let inspection: PlaylistInspection
        do {
            let reader = PlaylistReader(source: try FileDescriptorSource.open(path: path), path: path, options: options)
            inspection = try PlaylistInspector.inspect(reader)
        } catch {
            printer.print(message: "skdpack: \(error)")
            throw ExitStatus.failure
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var output = OutputSink(fd: 1, path: "<stdout>")
        do {
            try output.write(Array(try encoder.encode(inspection)))
            try output.write("\n")
            try output.flush()
        } catch {
            printer.print(message: "skdpack: \(error)")
            throw ExitStatus.failure
        }
        if inspection.diagnostics.contains(where: { $0.severity == .error }) { throw ExitStatus.findings }
    }
}
