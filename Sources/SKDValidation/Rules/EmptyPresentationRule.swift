import HLS

/// A playlist with neither a media segment nor a variant stream gives a player nothing to play: sometimes a
/// packaging step that failed after writing the header. No MUST of RFC 8216 asks for a segment or a variant
/// (a live playlist may have none yet, a master may carry only session data), so this is a note.
struct EmptyPresentationRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-nothing-to-play", severity: .info,
        summary: "The playlist has neither media segments nor variant streams (legal; worth a look before publishing).",
        specSection: "4.1")

    static let tags: Set<TagName>? = [.streamInf, .iFrameStreamInf]

    private var hasContent = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        if tag.name == .streamInf || tag.name == .iFrameStreamInf { hasContent = true }
    }

    /// A run of segments is judged at its first (one segment is content enough): the segments after it change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) { hasContent = true }

    mutating func finish(in context: RuleContext) {
        guard !hasContent, context.reader.lineCount > 0 else { return }
        context.report(
            Self.kind, "the playlist lists no segment and no variant stream; nothing here can play",
            at: context.location(line: 1, offset: 0))
    }
}
