import HLS

/// A master's FairPlay session key lets a player fetch the license before the first segment: it must be a
/// key the media playlists really use, with the same METHOD, URI, KEYFORMAT, KEYFORMATVERSIONS and IV
/// (RFC 8216 4.3.4.5), or the player preloads a license nobody needs, from a server that may be gone.
enum SessionKeyUnusedRule {
    static let kind = DiagnosticKind(
        id: "PKG-session-key-unused", severity: .error,
        summary: "A master's FairPlay session key is not a key any of its media playlists uses.",
        specSection: "4.3.4.5")

    static func check(master: PlaylistValidation, media: [PlaylistValidation]) -> [Diagnostic] {
        let used = media.flatMap(\.keys.fairPlayKeys)
        return master.keys.fairPlaySessionKeys.filter { !used.contains($0.value) }.map { value, line in
            kind(
                "no media playlist of this master uses the key \(value.uri) with these attributes; "
                    + "remove this session key or make it equal to the EXT-X-KEY",
                at: SourceLocation(path: master.path, line: line, column: 1, offset: 0))
        }
    }
}
