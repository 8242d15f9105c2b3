import HLS

/// EXT-X-SESSION-KEY is a master playlist tag: in a media playlist it makes the whole playlist one that
/// clients "MUST fail to parse". Reported here, by name, rather than as a generic mix of tags.
struct SessionKeyInMediaPlaylistRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-session-in-media", severity: .error,
        summary: "An EXT-X-SESSION-KEY appears in a media playlist.", specSection: "4.3.4")

    static let watchesSegments = false

    private var sessionKeys: [(line: Int, offset: Int)] = []
    private var isMediaPlaylist = false

    /// A run of segments is judged up to its first URI: one EXTINF (in the run, or read on its own before it)
    /// says the playlist is a media playlist.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let name = tag.name else { return }
        if name == .sessionKey {
            sessionKeys.append((line.raw.number, line.raw.offset))
        } else if name.scope == .mediaPlaylist || name.scope == .mediaSegment {
            isMediaPlaylist = true
        }
    }

    mutating func finish(in context: RuleContext) {
        guard isMediaPlaylist else { return }
        for key in sessionKeys {
            context.report(
                Self.kind, "EXT-X-SESSION-KEY belongs in the master playlist; move it there, or use EXT-X-KEY here",
                at: context.location(line: key.line, offset: key.offset))
        }
    }
}
