import HLS

/// Once a master announces FairPlay session keys, a media key it leaves out is fetched only when playback
/// reaches it: a stall at a key rotation, or at start on the rendition that uses it. A warning, since
/// announcing only the first key of a rotation is a choice some operators make.
enum SessionKeyMissingRule {
    static let kind = DiagnosticKind(
        id: "PKG-session-key-missing", severity: .warning,
        summary: "A master announces FairPlay session keys, but not every FairPlay key its media playlists use.",
        specSection: "4.3.4.5")

    static func check(master: PlaylistValidation, media: [PlaylistValidation]) -> [Diagnostic] {
        let sessionKeys = master.keys.fairPlaySessionKeys
        guard let first = sessionKeys.first else { return [] }
        let announced = sessionKeys.map(\.value)
        var missing: [(key: KeyAttributes, playlist: String)] = []
        for playlist in media {
            for key in playlist.keys.fairPlayKeys where !announced.contains(key) && !missing.contains(where: { $0.key == key }) {
                missing.append((key, playlist.path))
            }
        }
        return missing.map { key, playlist in
            kind(
                "the master announces FairPlay session keys but not \(key.uri) (used in \(playlist)); add \(key.text(.sessionKey))",
                at: SourceLocation(path: master.path, line: first.line, column: 1, offset: 0))
        }
    }
}
