import HLS
import SKDKeys

/// Once a master announces session keys (FairPlay's, or only the other systems': a FairPlay key added to a
/// title whose master was left as it was), a media key it leaves out is fetched only when playback
/// reaches it: a stall at a key rotation, or at start on the rendition that uses it. A warning, since
/// announcing only the first key of a rotation is a choice some operators make.
package enum SessionKeyMissingRule {
    package static let kind = DiagnosticKind(
        id: "PKG-session-key-missing", severity: .warning,
        summary: "A master announces session keys, but not every FairPlay key its media playlists use.",
        specSection: "4.3.4.5")

    /// Whether `key` is a FairPlay key the FPS rules accept: SAMPLE-AES, an `skd:` URI, version 1 offered.
    static func isSound(_ key: KeyAttributes) -> Bool {
        key.method == FairPlay.method && key.uri.lowercased().hasPrefix("skd:")
            && (key.keyFormatVersions.map { $0.split(separator: "/").contains("1") } ?? true)
    }

    static func check(master: PlaylistValidation, media: [PlaylistValidation]) -> [Diagnostic] {
        let sessionKeys = master.keys.fairPlaySessionKeys
        guard let line = sessionKeys.first?.line ?? master.keys.firstSessionKeyLine else { return [] }
        let announced = sessionKeys.map(\.value)
        // Each key once, with every playlist that uses it.
        var missing: [(key: KeyAttributes, playlists: [String])] = []
        for playlist in media {
            // A session key with the same URI and other attributes is PKG-session-key-attributes' finding.
            for key in playlist.keys.fairPlayKeys where !announced.contains(where: { $0.uri == key.uri }) {
                if let index = missing.firstIndex(where: { $0.key == key }) {
                    if !missing[index].playlists.contains(playlist.path) { missing[index].playlists.append(playlist.path) }
                } else {
                    missing.append((key, [playlist.path]))
                }
            }
        }
        return missing.map { key, playlists in
            // Only a key that would pass is offered as the session key to write: copying a broken one
            // (METHOD=AES-128, a URI that is not skd:) would add a second mistake.
            let advice =
                Self.isSound(key)
                ? "add \(key.text(.sessionKey))"
                : "that key has findings of its own in \(playlists[0]) (METHOD=\(key.method)); fix it, then announce it as an EXT-X-SESSION-KEY"
            let users =
                playlists.count <= 3
                ? playlists.joined(separator: ", ") : playlists.prefix(2).joined(separator: ", ") + " and \(playlists.count - 2) more"
            let said =
                sessionKeys.isEmpty
                ? "the master announces session keys of other systems only, not \(key.uri)"
                : "the master's FairPlay session keys leave out \(key.uri)"
            return kind(
                "\(said) (used by \(users)); \(advice)",
                at: SourceLocation(path: master.path, line: line, column: 1, offset: 0))
        }
    }
}
