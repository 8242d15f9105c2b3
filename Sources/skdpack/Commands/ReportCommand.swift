import ArgumentParser
import HLS
import SKDPack
import SKDReportModel
import SKDReports
import SKDTemplate

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the reports' schemas, or merge the reports of shards.",
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

struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the JSON or XML reports of shards (--shard I/N) into the report one run would have written.",
        discussion: """
            Only a whole set is merged: every shard 0/N to N-1/N of one run exactly once (the same command, \
            template and arguments outside --shard, --report, --output, --jobs and --progress). Otherwise the merge says what is missing or \
            mixed and exits 2; --allow-partial merges what there is and marks the report partial.

            Examples:
              skdpack report merge shard-*.json > report.json
              skdpack report merge --format xml shard-*.xml > report.xml
            """)

    @Option(help: "Output format: json, xml, junit, sarif or html.")
    var format: ReportFormat = .json

    @Argument(help: "The reports of the shards, JSON or XML (told apart by their first character), in any mix.")
    var reports: [String] = []

    @Flag(help: "Merge even if shards are missing; the report says it is partial and which shards it lacks.")
    var allowPartial = false

    func run() throws {
        try reportingUsage {
            guard !reports.isEmpty else { throw UsageFailure("give the reports of the shards to merge") }
            let printer = DiagnosticPrinter()
            var shared: [(path: String, finding: Report.Finding)] = []
            do {
                var loaded: [(name: String, report: Report)] = []
                for path in reports {
                    let bytes = Array(try TextFile.read(path).utf8)
                    let isXML = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
                    do {
                        loaded.append((path, isXML ? try ReportXMLReader.decode(bytes) : try ReportJSON.decode(bytes)))
                    } catch {
                        throw UsageFailure("\(path) is not an skdpack \(isXML ? "XML" : "JSON") report: \(error)")
                    }
                }
                // Titles said to share their keys (apply's opt-in, validate's rule turned off) are not held to each other.
                let arguments = loaded.first?.report.run.arguments.map(\.text) ?? []
                let titlesShareKeys =
                    arguments.contains("--allow-shared-content-id")
                    || zip(arguments, arguments.dropFirst()).contains { $0 == "--disable" && $1 == "FPS-uri-two-titles" }
                var merged = try Report.merging(loaded, allowingMissingShards: allowPartial, titlesShareKeys: titlesShareKeys) {
                    Self.runArguments($0) == Self.runArguments($1)
                }
                // The shards' arguments as read back (redacted when they were written), less --shard.
                merged.run.arguments = Self.withoutShard(merged.run.arguments.map(\.text)).map { Redacted(readBack: $0) }
                var output = OutputSink(fd: 1, path: "<stdout>")
                try output.write(format.encode(merged, rules: FindingKinds.all))
                try output.flush()
                shared = merged.keyURIsSharedByTitles
            } catch let failure as UsageFailure {
                throw failure
            } catch {
                printer.print(error: "\(error)")
                printer.flush()
                throw ExitStatus.failure
            }
            // The merged report is written whole; a URI two titles use fails it, as validate's run would.
            for (path, finding) in shared {
                let label = finding.severity == .info ? "note" : finding.severity.rawValue
                printer.print(
                    message: Redaction.none.redacted(
                        "\(path):\(finding.line):\(finding.column): \(label): \(finding.message) [\(finding.rule)]"))
            }
            printer.flush()
            if shared.contains(where: { $0.finding.severity == .error }) { throw ExitStatus.findings }
        }
    }
}

extension ReportMergeCommand {
    /// What makes two shards' runs one run: their arguments without what does not decide the result: which
    /// shard (`--shard`), where its report and its copies went (`--report`, `--output`: a pod per shard
    /// writes to its own volume), how many jobs and whether a progress bar.
    static func runArguments(_ arguments: [String]) -> [String] {
        let valued = ["--report", "--output", "--jobs"]
        return valued.reduce(withoutShard(arguments)) { kept, option in without(option, in: kept) }.filter {
            $0 != "--progress" && $0 != "--no-progress"
        }
    }

    /// A shard's recorded arguments without `--shard I/N`: what the whole run's were.
    static func withoutShard(_ arguments: [String]) -> [String] { without("--shard", in: arguments) }

    /// `arguments` without the option `option` and its value (`--option value` or `--option=value`).
    private static func without(_ option: String, in arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
            } else if argument == option {
                skipNext = true
            } else if !argument.hasPrefix(option + "=") {
                kept.append(argument)
            }
        }
        return kept
    }
}

extension ReportFormat: ExpressibleByArgument {}
