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

struct ApplyCommand: PlannedCommand {
    static let plannedIn = "issue #3: templates and apply"
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Insert or rewrite FairPlay keys following a template.",
        discussion: """
            Example:
              skdpack apply --template content-id --var content_id=title-42 --in-place library/title-42
            """)
    @Argument var paths: [String] = []
}

struct ValidateCommand: PlannedCommand {
    static let plannedIn = "issue #4: validate, rules and reports"
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check playlists, and with --template that every FairPlay key matches it.",
        discussion: """
            Example:
              skdpack validate --template entitlement --format junit library/ > results.xml
            """)
    @Argument var paths: [String] = []
}

struct RenderCommand: PlannedCommand {
    static let plannedIn = "issue #3: templates and apply"
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the URI a template makes for given variables, and its https license URL.",
        discussion: """
            Example:
              skdpack render --template entitlement --var entitlement_url=https://lic.example.com/fps --var content_id=42
            """)
}

struct ResolveCommand: PlannedCommand {
    static let plannedIn = "issue #3: templates and apply"
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Print the https license URL a player derives from an skd: URI.",
        discussion: """
            Example:
              skdpack resolve 'skd://lic.example.com/fps?cid=42'
            """)
    @Argument var uri: String?
}

struct TemplatesCommand: PlannedCommand {
    static let plannedIn = "issue #3: templates and apply"
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the shipped templates, show one, or check a template file.",
        discussion: """
            Examples:
              skdpack templates list
              skdpack templates show entitlement
              skdpack templates check my-template.yaml
            """)
    @Argument var arguments: [String] = []
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
