import ArgumentParser

/// A subcommand of DESIGN.md whose implementation has not landed yet: it says so and exits 2, so that a
/// pipeline never mistakes it for success.
protocol PlannedCommand: ParsableCommand {
    static var plannedIn: String { get }
}

extension PlannedCommand {
    func run() throws {
        let name = Self.configuration.commandName ?? "this command"
        FileHandleStandardError.write("skdpack \(name): not available yet (\(Self.plannedIn)).\n")
        throw ExitStatus.failure
    }
}

struct ReportCommand: PlannedCommand {
    static let plannedIn = "issues #4 and #5: reports, shards"
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Merge the reports of several shards, or print the reports' schemas.",
        discussion: """
            Examples:
              skdpack report merge shard-*.json > report.json
              skdpack report schema --format xml > skdpack-report.xsd
            """)
    @Argument var arguments: [String] = []
}
