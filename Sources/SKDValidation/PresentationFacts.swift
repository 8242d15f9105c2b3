import HLS

/// What the package rules need to know of one playlist beyond its keys: whether it is an I-frame playlist,
/// the tags that may appear in a master and its media playlists alike (RFC 8216 4.3.5), and the target
/// duration and playlist type every media playlist of a package shares (rfc8216bis 6.2.4).
public struct PresentationFacts: Hashable, Sendable {
    /// The playlist has EXT-X-I-FRAMES-ONLY.
    public var isIFramesOnly = false
    /// EXT-X-INDEPENDENT-SEGMENTS and EXT-X-START as written (the value after `:`, empty for none), with
    /// the line of the first of each.
    public var sharedTags: [SharedTag] = []
    /// EXT-X-TARGETDURATION's value and line (the first, when repeated).
    public var targetDuration: SharedTag?
    /// EXT-X-PLAYLIST-TYPE's value and line.
    public var playlistType: SharedTag?

    public struct SharedTag: Hashable, Sendable {
        public var name: TagName
        public var value: String
        public var line: Int
    }

    public init() {}

    mutating func note(_ tag: Tag, line: PlaylistLine) {
        switch tag.name {
        case .iFramesOnly:
            isIFramesOnly = true
        case .independentSegments, .start:
            guard let name = tag.name, !sharedTags.contains(where: { $0.name == name }) else { return }
            let text = line.text
            let value = text.firstIndex(of: ":").map { String(text[text.index(after: $0)...]) } ?? ""
            sharedTags.append(SharedTag(name: name, value: value, line: line.raw.number))
        case .targetDuration where targetDuration == nil:
            guard case .decimalInteger(let seconds) = tag.value else { return }
            targetDuration = SharedTag(name: .targetDuration, value: String(seconds), line: line.raw.number)
        case .playlistType where playlistType == nil:
            guard case .enumerated(let type) = tag.value else { return }
            playlistType = SharedTag(name: .playlistType, value: type, line: line.raw.number)
        default:
            break
        }
    }
}
