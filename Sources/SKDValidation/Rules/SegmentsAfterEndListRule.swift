import HLS

/// RFC 8216 lets EXT-X-ENDLIST "occur anywhere in the Media Playlist file", so this is legal; but
/// packagers and some players read it as the end. A note, for the person who did not mean it.
struct SegmentsAfterEndListRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-segments-after-endlist", severity: .info,
        summary: "Media segments follow EXT-X-ENDLIST (legal: it may occur anywhere); some tools stop reading at it.",
        specSection: "4.3.3.4")

    static let tags: Set<TagName>? = [.endList]

    private var endList: Int?
    private var reported = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        if tag.name == .endList, endList == nil { endList = line.raw.number }
    }

    /// A run of segments is judged at its first (a segment after EXT-X-ENDLIST is said once, at the first): the
    /// segments after it change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let endList, !reported else { return }
        reported = true
        context.report(
            Self.kind, "this segment comes after #EXT-X-ENDLIST (line \(endList)): legal, but tools that stop at EXT-X-ENDLIST miss it",
            line: line)
    }
}
