import ArgumentParser
import SKDKeys
import SKDPack
import SKDTemplate

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options that choose a template and give its variables, shared by `apply` and `render`.
struct TemplateOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The template: a shipped name (skdpack templates list), a template file, or an skd:// URI template.",
            valueName: "NAME|FILE|URI"), completion: Completions.template)
    var template: String

    @Option(
        name: [.customLong("var")],
        help: ArgumentHelp("A template variable (repeatable); beats every other source.", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(
        name: [.customLong("var-file")],
        help: ArgumentHelp(
            "A template variable whose value is a file's text, one final newline dropped (repeatable): a secret kept off the "
                + "command line, the process list and the shell's history.",
            valueName: "NAME=FILE"))
    var variableFiles: [String] = []

    @Option(
        help: ArgumentHelp("Variables per title from a CSV (header row) or JSON file.", valueName: "FILE"),
        completion: .file(extensions: ["csv", "json"]))
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "Named groups of this regular expression, matched on each playlist's path, become variables.", valueName: "REGEX"))
    var pathPattern: String?

    @Option(
        help: ArgumentHelp(
            "Named groups of this regular expression, matched on each existing FairPlay key URI, become variables (migrations).",
            valueName: "REGEX"))
    var match: String?

    /// What the options ask for, for the ``Planner`` to read and check.
    var values: ValuesRequest {
        ValuesRequest(values: variables, valueFiles: variableFiles, catalog: catalog, pathPattern: pathPattern, match: match)
    }
}

/// A problem with how the command was called: said on stderr, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body`, turning a ``UsageFailure`` into a message and exit status 2.
func reportingUsage(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as UsageFailure {
        StandardStreams.error(Redaction.none.redacted("skdpack: \(failure.description)\n"))
        throw ExitStatus.failure
    } catch let problem as RequestProblem {
        // (A request's problem shows no value given but as the Planner shows it, redacted: its messages name settings.)
        StandardStreams.error(Redaction.none.redacted("skdpack: \(problem.message)\n"))
        throw ExitStatus.failure
    }
}
