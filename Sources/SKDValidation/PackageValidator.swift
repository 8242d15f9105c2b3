import HLS
import SKDKeys

/// The `PKG` rules: checks across a master playlist and the media playlists it references, run once the
/// package's playlists have been validated one by one.
public enum PackageValidator {
    /// Each package rule: its kinds and its check.
    static let rules: [(kinds: [DiagnosticKind], check: @Sendable (PackageContents) -> [Diagnostic])] = [
        (
            [SessionKeyUnusedRule.kind, SessionKeyUnusedRule.unverifiedKind, SessionKeyUnusedRule.attributesKind],
            SessionKeyUnusedRule.check
        ),
        ([SessionKeyMissingRule.kind], { SessionKeyMissingRule.check(master: $0.master, media: $0.media) }),
        ([ProtectionSystemsRule.kind], { ProtectionSystemsRule.check(master: $0.master, media: $0.media) }),
        ([IFramePlaylistRule.kind], IFramePlaylistRule.check),
        ([SharedTagRule.repeatedKind, SharedTagRule.differentKind], SharedTagRule.check),
        (MeasuredVariantRule.kinds, MeasuredVariantRule.check),
        ([PackageTargetDurationRule.targetKind, PackageTargetDurationRule.typeKind], PackageTargetDurationRule.check),
    ]

    /// The package findings, each placed in the playlist it is about; `master` is `nil` for a media
    /// playlist alone (nothing to compare). `unreadMedia` counts the master's references not read (remote,
    /// root-relative, missing): what needs every media playlist is then only a note. `iFramePlaylists` are
    /// the paths EXT-X-I-FRAME-STREAM-INF names.
    public static func validate(
        master: PlaylistValidation?, media: [PlaylistValidation], unreadMedia: Int = 0, iFramePlaylists: Set<String> = [],
        options: ValidationOptions = ValidationOptions()
    ) -> [Diagnostic] {
        // One FairPlay URI per key: judged on every title, a media playlist alone too.
        var findings = KeyMapRule.check(media)
        if let master {
            let contents = PackageContents(master: master, media: media, unreadMedia: unreadMedia, iFramePlaylists: iFramePlaylists)
            for rule in rules { findings += rule.check(contents) }
        }
        // A finding about several playlists may quote any of their keys (a session key's URI, a media key's):
        // each playlist's secrets are hidden in it, as in the playlist's own findings.
        let redaction = ([master].compactMap { $0 } + media).reduce(options.redaction) { $0.adding($1.redaction) }
        return options.findingPolicy.applied(to: findings, hiding: redaction)
    }
}

/// A master and what was read of the playlists it references, as the package rules see them.
struct PackageContents: Sendable {
    var master: PlaylistValidation
    var media: [PlaylistValidation]
    /// References not read here: remote, root-relative, missing or outside the input.
    var unreadMedia: Int
    /// The paths of the media playlists an EXT-X-I-FRAME-STREAM-INF names.
    var iFramePlaylists: Set<String>
}
