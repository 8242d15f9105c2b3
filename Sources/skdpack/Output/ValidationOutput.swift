import Glibc
import HLS
import SKDPack
import SKDReports

/// Where `validate` writes its results, as they come: findings for a person, or a report. The human form,
/// JSON and XML are written playlist by playlist, so a library of any size costs no memory here; JUnit
/// and SARIF, whose headers count what follows, are written at the end.
final class ValidationOutput {
    enum Form {
        case human
        case report(ReportFormat)
    }

    private var sink = OutputSink(fd: 1, path: "<stdout>")
    private var printer: FindingsPrinter?
    private var stream: ReportStream?
    private var format: ReportFormat?
    private var kept: [Report.Playlist] = []
    private var summary = Report.Summary()
    private let spooled: String?
    /// A playlist had an error-severity finding.
    private(set) var hasErrors = false

    /// `spooled`: the file standard input was copied to, shown as `-`.
    init(_ form: Form, spooled: String?) throws {
        self.spooled = spooled
        switch form {
        case .human:
            printer = FindingsPrinter(colour: isatty(1) == 1 && getenv("NO_COLOR") == nil)
        case .report(let reportFormat):
            format = reportFormat
            let tool = Report.Tool(version: SKDPackVersion.current)
            stream =
                switch reportFormat {
                case .json: ReportJSONStream(tool: tool)
                case .xml: try ReportXMLStream(tool: tool)
                case .junit, .sarif: nil
                }
            if let stream { try sink.write(try stream.start()) }
        }
    }

    /// One playlist's results, in report order.
    func add(_ validation: PlaylistValidation, package: String) throws {
        var validation = validation
        var package = package
        if let spooled {
            if validation.path == spooled { validation = Self.renamed(validation, to: "-") }
            if package == spooled { package = "-" }
        }
        if validation.count(.error) > 0 { hasErrors = true }
        if printer != nil {
            try printer!.print(validation, readingFrom: spooled, to: &sink)
            return
        }
        let entry = Report.Playlist(validation, package: package)
        summary.add(entry)
        if let stream {
            try sink.write(try stream.add(entry))
        } else {
            kept.append(entry)
        }
    }

    /// The summary line, or the end of the report.
    func finish(run: Report.Run) throws {
        if let printer {
            try printer.finish(to: &sink)
        } else if let stream {
            try sink.write(try stream.finish(run: run, summary: summary))
        } else if let format {
            try sink.write(try format.encode(Report(tool: Report.Tool(version: SKDPackVersion.current), run: run, playlists: kept)))
        }
        try sink.flush()
    }

    private static func renamed(_ result: PlaylistValidation, to shown: String) -> PlaylistValidation {
        var renamed = result
        renamed.path = shown
        for index in renamed.diagnostics.indices { renamed.diagnostics[index].location.path = shown }
        return renamed
    }
}
