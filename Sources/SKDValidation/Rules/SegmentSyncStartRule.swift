import HLS

/// A video segment that does not start with a sync sample (an IDR or IRAP picture): a player starting or
/// switching there discards the frames before its first IDR (rfc8216bis, section 3: a segment SHOULD let a
/// decoder start).
struct SegmentSyncStartRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-sync-start", severity: .warning,
        summary: "A video segment does not start with a sync sample.",
        specSection:
            "rfc8216bis-22 3 (a segment SHOULD let a decoder start: frames before its first IDR are discarded); ISO/IEC 14496-12 8.8.3.1")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard context.segments?.independentSegments == false, context.segments?.iFramesOnly == false,
            SegmentIndependenceRule.startsWithoutSync(line, context)
        else { return }
        context.report(
            Self.kind,
            "this segment's video starts with a picture that is not a sync sample: a player starting or switching here discards "
                + "the frames before the first IDR; cut segments at IDR pictures (a keyframe interval that divides the segment duration)",
            line: line)
    }
}

/// Under EXT-X-INDEPENDENT-SEGMENTS every segment decodes without the ones before it (4.3.5.1): a video
/// segment that does not start with a sync sample makes the tag untrue.
struct SegmentIndependenceRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-not-independent", severity: .error,
        summary: "Under EXT-X-INDEPENDENT-SEGMENTS, a video segment does not start with a sync sample.",
        specSection: "rfc8216bis-22 4.4.2.1 (RFC 8216 4.3.5.1); ISO/IEC 14496-12 8.8.3.1; ITU-T H.264 7.4.1.2.4")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard context.segments?.independentSegments == true, context.segments?.iFramesOnly == false, Self.startsWithoutSync(line, context)
        else { return }
        context.report(
            Self.kind,
            "this segment's video starts with a picture that is not a sync sample, and EXT-X-INDEPENDENT-SEGMENTS says every "
                + "segment decodes on its own: cut segments at IDR pictures, or remove the tag",
            line: line)
    }

    static func startsWithoutSync(_ line: PlaylistLine, _ context: RuleContext) -> Bool {
        guard let segment = context.segment(at: line), case .measured(let media) = segment.reading else { return false }
        return media.startsWithSyncSample == false
    }
}
