import FoundationEssentials
import HLS
import SKDBytes
import SKDReportModel

/// The report as SARIF 2.1.0, for code-scanning views: the rules that fired with their help, and a result
/// per finding with its location.
public enum SARIFReport {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    public static func encode(_ report: Report, rules catalogue: [DiagnosticKind]) throws -> [UInt8] {
        let fired = Set(report.playlists.flatMap { $0.diagnostics.map(\.rule) })
        let rules = catalogue.filter { fired.contains($0.id.rawValue) }.sorted { $0.id < $1.id }
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id.rawValue, $0) })
        let log = Log(runs: [
            RunEntry(
                tool: ToolEntry(
                    driver: Driver(
                        name: report.tool.name, version: report.tool.version,
                        rules: rules.map(Rule.init))),
                results: report.playlists.flatMap { playlist in
                    playlist.diagnostics.map { finding in
                        Result(
                            ruleId: finding.rule, ruleIndex: index[finding.rule], level: Self.level(finding.severity),
                            message: Message(text: finding.message.text),
                            locations: [
                                Location(
                                    physicalLocation: PhysicalLocation(
                                        artifactLocation: ArtifactLocation(uri: Self.uriReference(ofPath: playlist.path)),
                                        region: Region(startLine: finding.line, startColumn: finding.column)))
                            ])
                    }
                })
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(log)) + [0x0A]
    }

    /// A file path as the URI reference SARIF's `artifactLocation.uri` must be (RFC 3986): every byte but
    /// the unreserved ones and `/` percent-encoded, so a space, `%`, `#`, `?` or a non-ASCII name stays
    /// the same path for the viewer that decodes it.
    static func uriReference(ofPath path: String) -> String {
        var output: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                Hex.append(byte, uppercase: true, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    struct Log: Encodable {
        var schema = SARIFReport.schemaURI
        var version = "2.1.0"
        var runs: [RunEntry]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    struct RunEntry: Encodable {
        var tool: ToolEntry
        var results: [Result]
    }

    struct ToolEntry: Encodable { var driver: Driver }

    struct Driver: Encodable {
        var name: String
        var version: String
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var shortDescription: Message
        var help: Message
        var defaultConfiguration: Configuration
        var properties: Properties

        init(_ kind: DiagnosticKind) {
            id = kind.id.rawValue
            shortDescription = Message(text: kind.summary)
            help = Message(text: "\(kind.summary) See \(kind.citation).")
            defaultConfiguration = Configuration(level: SARIFReport.level(kind.severity))
            properties = Properties(specSection: kind.specSection, family: String(kind.id.family))
        }
    }

    struct Configuration: Encodable { var level: String }
    struct Properties: Encodable {
        var specSection: String
        var family: String
    }
    struct Message: Encodable { var text: String }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Message
        var locations: [Location]
    }

    struct Location: Encodable { var physicalLocation: PhysicalLocation }
    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }
    struct ArtifactLocation: Encodable { var uri: String }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }
}
