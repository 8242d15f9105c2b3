import ArgumentParser
import SKDKeys
import SKDPack
import SKDTemplate

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the templates, show one, or check a template file.",
        discussion: """
            Named templates are searched in the directories of SKDPACK_TEMPLATE_PATH (colon-separated), then \
            among those shipped with skdpack.

            Examples:
              skdpack templates list
              skdpack templates show entitlement
              skdpack templates check templates/entitlement.yaml
            """,
        subcommands: [List.self, Show.self, Check.self])

    struct List: ParsableCommand {
        // Every command names itself: ArgumentParser would otherwise derive the name from the type's name
        // at every start-up, which costs more than reading a small playlist.
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "The shipped templates, with their URI and description.",
            discussion: "Example:\n  skdpack templates list")

        func run() throws {
            let library = TemplateLibrary()
            for name in TemplateLibrary.shippedNames {
                let definition = try KeyTemplate.resolve(name, in: library).definition
                try StandardStreams.output(Redaction.none.redacted("\(name)\n    \(definition.uri)\n    \(definition.description ?? "")\n"))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a template's file.",
            discussion: "Example:\n  skdpack templates show expressplay-token")

        @Argument(help: "A template name or file.")
        var name: String

        func run() throws {
            let library = TemplateLibrary.fromProcessEnvironment()
            do {
                let definition = try KeyTemplate.resolve(name, in: library).definition
                // A token written in a template's text, or a secret variable's default, is a secret here too.
                let redaction = Redaction(
                    secrets: KeyTemplate.literalSecrets(of: definition.uri)
                        + definition.secretNames.compactMap { definition.variables[$0]?.defaultValue.map(Secret.init) })
                if let path = definition.path, let text = try? String(contentsOfFile: path, encoding: .utf8) {
                    try StandardStreams.output(redaction.redacted(text))
                } else if let text = TemplateLibrary.shippedText(definition.name) {
                    try StandardStreams.output(redaction.redacted(text))
                } else {
                    try StandardStreams.output(redaction.redacted("uri: \"\(definition.uri)\"\n"))
                }
            } catch let status as ExitCode {
                throw status
            } catch {
                StandardStreams.error(Redaction.none.redacted("skdpack templates show: \(error)\n"))
                throw ExitStatus.failure
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a template file: YAML, known keys, types, the URI, the patterns and defaults.",
            discussion: "Example:\n  skdpack templates check templates/entitlement.yaml")

        @Argument(help: "Template files.")
        var files: [String]

        func run() throws {
            var failed = false
            var unreadable = false
            for file in files {
                do {
                    // Every problem of the file, each with its line and column, as a compiler lists them.
                    let (template, problems) = try KeyTemplate.problems(inFileAt: file)
                    for problem in problems { StandardStreams.error(Redaction.none.redacted("\(problem)\n")) }
                    guard let definition = template?.definition else {
                        failed = true
                        continue
                    }
                    let variables = definition.uri.variableNames.joined(separator: ", ")
                    try StandardStreams.output(
                        Redaction.none.redacted("\(file): ok: \(definition.name), \(definition.uri) (variables: \(variables))\n"))
                } catch let status as ExitCode {
                    throw status
                } catch {
                    // A file that cannot be read is the tool's failure (exit 2), not a finding of the file.
                    let shipped =
                        TemplateLibrary.shippedNames.contains(file)
                        ? "; \(file) is a shipped template, checked when it is built: skdpack templates show \(file) > mine.yaml makes a file of it"
                        : ""
                    StandardStreams.error(Redaction.none.redacted("\(error)\(shipped)\n"))
                    unreadable = true
                }
            }
            if unreadable { throw ExitStatus.failure }
            if failed { throw ExitStatus.findings }
        }
    }
}
