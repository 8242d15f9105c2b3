import HLS
import SKDReportModel

/// The forms of a report: for machines (JSON, XML, JUnit, SARIF) and for people (HTML).
public enum ReportFormat: String, CaseIterable, Sendable {
    case json, xml, junit, sarif, html

    /// The bytes of `report` in this format; SARIF describes each kind of finding from `rules` (the tool's
    /// catalogue of kinds: `FindingKinds.all` for skdpack's), which the other formats do not carry.
    public func encode(_ report: Report, rules: [DiagnosticKind]) throws -> [UInt8] {
        switch self {
        case .json: try ReportJSON.encode(report)
        case .xml: try ReportXML.encode(report)
        case .junit: try JUnitReport.encode(report)
        case .sarif: try SARIFReport.encode(report, rules: rules)
        case .html:
            // The page is written as a stream writes it: one way to make it.
            try Self.streamed(HTMLReportStream(tool: report.tool), report)
        }
    }

    /// `report` through `stream`, its playlists in report order.
    static func streamed(_ stream: ReportStream, _ report: Report) throws -> [UInt8] {
        var bytes = try stream.start()
        for playlist in report.playlists { bytes += try stream.add(playlist) }
        return bytes + (try stream.finish(run: report.run, summary: report.summary))
    }

    /// The format a report file's name asks for: `.json`, `.xml`, `.junit.xml`, `.sarif` (or `.sarif.json`),
    /// `.html` (or `.htm`).
    public init?(fileName: String) {
        let name = fileName.lowercased()
        if name.hasSuffix(".junit.xml") || name.hasSuffix(".junit") {
            self = .junit
        } else if name.hasSuffix(".sarif") || name.hasSuffix(".sarif.json") {
            self = .sarif
        } else if name.hasSuffix(".xml") {
            self = .xml
        } else if name.hasSuffix(".json") {
            self = .json
        } else if name.hasSuffix(".html") || name.hasSuffix(".htm") {
            self = .html
        } else {
            return nil
        }
    }
}
