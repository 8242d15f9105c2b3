import HLS
import SKDPack

/// The machine-readable forms of a report.
public enum ReportFormat: String, CaseIterable, Sendable {
    case json, xml, junit, sarif

    /// The bytes of `report` in this format.
    public func encode(_ report: Report) throws -> [UInt8] {
        switch self {
        case .json: try ReportJSON.encode(report)
        case .xml: try ReportXML.encode(report)
        case .junit: try JUnitReport.encode(report)
        case .sarif: try SARIFReport.encode(report, rules: RuleRegistry.allKinds)
        }
    }

    /// The format a report file's name asks for: `.json`, `.xml`, `.junit.xml`, `.sarif` (or `.sarif.json`).
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
        } else {
            return nil
        }
    }
}
