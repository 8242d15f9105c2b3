/// Whether a playlist is a master (multivariant) playlist or a media playlist (RFC 8216 section 4.3).
public enum PlaylistKind: String, Hashable, Sendable, Codable {
    case master
    case media
    /// Holds both master and media playlist tags: not a valid playlist of either kind.
    case mixed
    /// Holds neither (an empty file, or only a header).
    case unknown

    mutating func note(_ scope: TagScope) {
        switch (self, scope) {
        case (.unknown, .masterPlaylist): self = .master
        case (.unknown, .mediaPlaylist), (.unknown, .mediaSegment): self = .media
        case (.master, .mediaPlaylist), (.master, .mediaSegment), (.media, .masterPlaylist): self = .mixed
        default: break
        }
    }
}
