import ArgumentParser
import CPIX
import FoundationEssentials
import HLS
import SKDKeys
import SKDPack

struct CPIXCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cpix",
        abstract: "Read CPIX documents from a key server.",
        subcommands: [CPIXShowCommand.self]
    )
}

struct CPIXShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print what skdpack understands of a CPIX document: keys, FairPlay signaling, periods, usage rules.",
        discussion: """
            Never prints a key value: skdpack reads key ids and signaling only. IVs and the tokens of key URIs \
            are shown as REDACTED unless --show-secrets. A document skdpack cannot use is refused with \
            file:line: and the reason (exit status 2).

            Examples:
              skdpack cpix show examples/key-truth/keys.xml
              skdpack cpix show --format json examples/key-truth/keys.xml \\
                  | jq '.keys[].fairPlay.uri'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "A CPIX document.")
    var path: String

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .text

    @Flag(help: "Show IVs and key URI tokens in clear (they are REDACTED otherwise).")
    var showSecrets = false

    func run() throws {
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        let document: CPIXDocument
        do {
            document = try CPIXReader.read(path)
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
        let summary = CPIXSummary(document, showingSecrets: showSecrets)
        let redaction = CPIXSummary.redaction(of: document, showingSecrets: showSecrets)
        do {
            switch format {
            case .text:
                try StandardStreams.output(redaction.redacted(summary.text))
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try StandardStreams.output(redaction.redacted(String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n"))
            }
        } catch let status as ExitCode {
            throw status
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
    }
}
