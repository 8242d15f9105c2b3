import HLS

/// The `PKG` rules: checks across a master playlist and the media playlists it references, run once the
/// package's playlists have been validated one by one.
public enum PackageValidator {
    /// Each package rule: its kinds and its check (given the master, its media playlists read, and how many
    /// of its references were not read).
    static let rules: [(kinds: [DiagnosticKind], check: @Sendable (PlaylistValidation, [PlaylistValidation], Int) -> [Diagnostic])] = [
        (
            [SessionKeyUnusedRule.kind, SessionKeyUnusedRule.unverifiedKind],
            { SessionKeyUnusedRule.check(master: $0, media: $1, unreadMedia: $2) }
        ),
        ([SessionKeyMissingRule.kind], { master, media, _ in SessionKeyMissingRule.check(master: master, media: media) }),
        ([ProtectionSystemsRule.kind], { master, media, _ in ProtectionSystemsRule.check(master: master, media: media) }),
    ]

    /// The package findings, each placed in the playlist it is about; `master` is `nil` for a media
    /// playlist alone (nothing to compare). `unreadMedia` counts the master's references not read (remote,
    /// root-relative, missing): what needs every media playlist is then only a note.
    public static func validate(
        master: PlaylistValidation?, media: [PlaylistValidation], unreadMedia: Int = 0,
        options: ValidationOptions = ValidationOptions()
    ) -> [Diagnostic] {
        guard let master else { return [] }
        var findings: [Diagnostic] = []
        for rule in rules {
            findings += rule.check(master, media, unreadMedia).filter { !options.disabledRules.contains($0.id) }
        }
        guard options.warningsAsErrors else { return findings }
        return findings.map { finding in
            var finding = finding
            if finding.severity == .warning { finding.severity = .error }
            return finding
        }
    }
}
