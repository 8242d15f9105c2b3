import ArgumentParser
import HLS
import SKDReports

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the reports' schemas, or merge the reports of several shards.",
        discussion: """
            Examples:
              skdpack report schema --format xml > skdpack-report.xsd
              skdpack report merge shard-*.json > report.json
            """,
        subcommands: [ReportSchemaCommand.self, ReportMergeCommand.self])
}

struct ReportSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema or the XSD that every report of this version follows.",
        discussion: """
            Examples:
              skdpack report schema --format json > skdpack-report.schema.json
              skdpack report schema --format xml > skdpack-report.xsd
              xmllint --noout --schema skdpack-report.xsd report.xml
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case json, xml }

    @Option(help: "json (JSON Schema) or xml (XSD).")
    var format: Format

    func run() throws {
        var output = OutputSink(fd: 1, path: "<stdout>")
        try output.write(format == .json ? ReportSchemas.jsonSchema : ReportSchemas.xsd)
        try output.flush()
    }
}
