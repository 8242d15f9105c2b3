import HLS

/// The `PKG` rules: checks across a master playlist and the media playlists it references, run once the
/// package's playlists have been validated one by one.
public enum PackageValidator {
    /// Each package rule: its kind and its check.
    static let rules: [(kind: DiagnosticKind, check: @Sendable (PlaylistValidation, [PlaylistValidation]) -> [Diagnostic])] = [
        (SessionKeyUnusedRule.kind, { SessionKeyUnusedRule.check(master: $0, media: $1) }),
        (SessionKeyMissingRule.kind, { SessionKeyMissingRule.check(master: $0, media: $1) }),
        (ProtectionSystemsRule.kind, { ProtectionSystemsRule.check(master: $0, media: $1) }),
    ]

    /// The package findings, each placed in the playlist it is about; `master` is `nil` for a media
    /// playlist alone (nothing to compare).
    public static func validate(
        master: PlaylistValidation?, media: [PlaylistValidation], options: ValidationOptions = ValidationOptions()
    ) -> [Diagnostic] {
        guard let master else { return [] }
        var findings: [Diagnostic] = []
        for rule in rules where !options.disabledRules.contains(rule.kind.id) {
            findings += rule.check(master, media)
        }
        guard options.warningsAsErrors else { return findings }
        return findings.map { finding in
            var finding = finding
            if finding.severity == .warning { finding.severity = .error }
            return finding
        }
    }
}
