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

struct ReportMergeCommand: PlannedCommand {
    static let plannedIn = "issue #5: shards"
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of several shards into one.",
        discussion: """
            Example:
              skdpack report merge shard-*.json > report.json
            """)
    @Argument var reports: [String] = []
}
