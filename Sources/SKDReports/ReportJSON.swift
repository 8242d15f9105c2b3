import FoundationEssentials
import SKDReportModel

/// The report as JSON: keys sorted, so that equal reports are equal bytes; valid against the shipped
/// JSON Schema.
public enum ReportJSON {
    public static func encode(_ report: Report) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(report)) + [0x0A]
    }

    public static func decode(_ bytes: [UInt8]) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(bytes))
    }
}
