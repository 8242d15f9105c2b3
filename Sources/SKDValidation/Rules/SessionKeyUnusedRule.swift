import HLS
import SKDKeys

/// A master's FairPlay session key lets a player fetch the license before the first segment: it must be a
/// key the media playlists really use, with the same METHOD, URI, KEYFORMAT, KEYFORMATVERSIONS and IV
/// (RFC 8216 4.3.4.5), or the player preloads a license nobody needs, from a server that may be gone.
/// When some of the master's media playlists are not read here (remote, root-relative or missing), the
/// key may be used there: that is only a note.
enum SessionKeyUnusedRule {
    static let kind = DiagnosticKind(
        id: "PKG-session-key-unused", severity: .error,
        summary: "A master's FairPlay session key is not a key any of its media playlists uses.",
        specSection: "4.3.4.5")
    static let unverifiedKind = DiagnosticKind(
        id: "PKG-session-key-unverified", severity: .info,
        summary: "A master's FairPlay session key is used by none of the media playlists read, but some of its media "
            + "playlists are remote, root-relative or missing, so whether it is used cannot be known here.",
        specSection: "4.3.4.5")

    /// rfc8216bis 4.4.6.5: "the values of the METHOD, KEYFORMAT, and KEYFORMATVERSIONS attributes MUST match any
    /// EXT-X-KEY with the same URI value".
    static let attributesKind = DiagnosticKind(
        id: "PKG-session-key-attributes", severity: .error,
        summary: "A session key's METHOD, KEYFORMAT or KEYFORMATVERSIONS differ from those of a media key with the same URI.",
        specSection: "rfc8216bis-22 4.4.6.5 (RFC 8216 4.3.4.5)")

    static func check(_ package: PackageContents) -> [Diagnostic] {
        let (master, unreadMedia) = (package.master, package.unreadMedia)
        let used = package.media.flatMap(\.keys.fairPlayKeys)
        return master.keys.fairPlaySessionKeys.filter { !used.contains($0.value) }.map { value, line in
            let location = SourceLocation(path: master.path, line: line, column: 1, offset: 0)
            // The same URI with other METHOD, KEYFORMAT or KEYFORMATVERSIONS: the draft's own MUST, said as such.
            if let twin = used.first(where: { $0.uri == value.uri }) {
                let differing = [
                    ("METHOD", value.method, twin.method), ("KEYFORMAT", value.keyFormat, twin.keyFormat),
                    ("KEYFORMATVERSIONS", value.keyFormatVersions ?? "1", twin.keyFormatVersions ?? "1"),
                ].filter { $0.1 != $0.2 }
                if !differing.isEmpty {
                    let list = differing.map { "\($0.0)=\"\($0.1)\" where the media key has \"\($0.2)\"" }.joined(separator: ", ")
                    return attributesKind(
                        "this session key has the URI \(value.uri) of a media key, and \(list): make them match (rfc8216bis 4.4.6.5)",
                        at: location)
                }
            }
            guard unreadMedia == 0 else {
                return unverifiedKind(
                    "no media playlist read here uses the key \(value.uri); \(unreadMedia) of this master's references "
                        + "are not read here (remote, root-relative or missing), so it may be used there",
                    at: location)
            }
            return kind(
                "no media playlist of this master uses the key \(value.uri) with these attributes; "
                    + "remove this session key or make it equal to the EXT-X-KEY",
                at: location)
        }
    }
}
