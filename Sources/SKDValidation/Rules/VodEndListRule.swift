import HLS

/// A VOD playlist cannot change (rfc8216bis 4.4.3.5), so it already holds the presentation's final segment,
/// and a playlist holding the final segment MUST contain EXT-X-ENDLIST (6.2.1): without it players poll a
/// playlist that never grows, and treat the title as live.
struct VodEndListRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-vod-without-endlist", severity: .error,
        summary: "An EXT-X-PLAYLIST-TYPE:VOD playlist has no EXT-X-ENDLIST.",
        specSection:
            "rfc8216bis-22 4.4.3.5 (a VOD playlist cannot change) and 6.2.1 (the final segment's playlist MUST contain EXT-X-ENDLIST)")

    static let tags: Set<TagName>? = [.playlistType, .endList]
    static let watchesSegments = false

    private var vod: RulePlace?
    private var ended = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .playlistType where tag.value == .enumerated("VOD"): vod = context.place(line)
        case .endList: ended = true
        default: break
        }
    }

    mutating func finish(in context: RuleContext) {
        guard let vod, !ended else { return }
        context.report(
            Self.kind,
            "this playlist says EXT-X-PLAYLIST-TYPE:VOD, so it holds the final segment and cannot change, and it has no "
                + "EXT-X-ENDLIST: add #EXT-X-ENDLIST after the last segment (or make the type EVENT while it grows)",
            at: vod)
    }
}
