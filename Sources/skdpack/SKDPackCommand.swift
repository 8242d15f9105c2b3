import ArgumentParser
import HLS
import SKDKeys
import SKDTemplate

@main
struct SKDPackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skdpack",
        abstract: "Put FairPlay skd: key URIs into HLS playlists, validate them, and report what was done.",
        discussion: """
            Examples:
              skdpack cat examples/library/clear-title/video-720p.m3u8
              skdpack inspect examples/library/multi-drm-title/video-720p.m3u8
              skdpack validate examples/library
            """,
        version: SKDPackVersion.full,
        subcommands: [
            ApplyCommand.self, ValidateCommand.self, RenderCommand.self, ResolveCommand.self,
            TemplatesCommand.self, RulesCommand.self, CatCommand.self, InspectCommand.self, CPIXCommand.self, ReportCommand.self,
        ]
    )
}

extension SKDPackCommand {
    /// As ArgumentParser's, except that a usage error exits 2 (README, exit status: 2 and above, the tool could not do
    /// its job), not 64, so that 1 always means findings; and that a plain `apply` or `validate` command line is
    /// parsed by ``ApplyFastPath`` or ``ValidateFastPath``, and `cat PATH` without ArgumentParser.
    static func main() {
        do {
            // A plain `apply`, `validate` or `cat` command line skips ArgumentParser's parse, the largest part of a small run.
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let settings = ApplyFastPath.settings(arguments) {
                try settings.run()
                return
            }
            if let settings = ValidateFastPath.settings(arguments) {
                try settings.run()
                return
            }
            if let path = CatCommand.plainPath(arguments) {
                try CatCommand.run(path: path, options: ReaderOptions())
                return
            }
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            let advice = UsageAdvice.message(for: Array(CommandLine.arguments.dropFirst())).map { "Error: " + $0 }
            StandardStreams.error(Redaction.none.redacted((advice ?? fullMessage(for: error)) + "\n"))
            exit(withError: ExitStatus.failure)
        }
    }
}

enum SKDPackVersion {
    /// The release, as in reports' `tool.version`.
    static let current = "0.1.0"

    /// What `--version` prints: the release and the commit it was built from. The commit is known to a
    /// build made by `make` (install, dist, the container image), which writes it into
    /// `Generated/BuildCommit.swift`; a plain `swift build` says so instead.
    static var full: String { "\(current) (\(commit.map { "commit \($0)" } ?? "built without make: commit unknown"))" }
}

/// Exit statuses (README): 0 clean, 1 findings of error severity, 2 the tool could not do its job.
enum ExitStatus {
    static let findings = ExitCode(1)
    static let failure = ExitCode(2)
}
