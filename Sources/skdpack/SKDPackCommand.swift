import ArgumentParser

@main
struct SKDPackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skdpack",
        abstract: "Put FairPlay skd: key URIs into HLS playlists, validate them, and report what was done.",
        discussion: """
            Examples:
              skdpack cat examples/library/clear/index.m3u8
              skdpack inspect examples/library/multi-drm/video.m3u8 --format json
            """,
        version: SKDPackVersion.current,
        subcommands: [
            ApplyCommand.self, ValidateCommand.self, RenderCommand.self, ResolveCommand.self,
            TemplatesCommand.self, RulesCommand.self, CatCommand.self, InspectCommand.self, ReportCommand.self,
        ]
    )
}

enum SKDPackVersion {
    static let current = "0.1.0"
}

/// Exit statuses (DESIGN.md): 0 clean, 1 findings of error severity, 2 the tool could not do its job.
enum ExitStatus {
    static let findings = ExitCode(1)
    static let failure = ExitCode(2)
}
