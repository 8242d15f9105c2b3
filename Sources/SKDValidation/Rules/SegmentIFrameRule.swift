import HLS

/// In an I-frame playlist each segment is a single I-frame (rfc8216bis 4.4.3.6): its sample must be a sync
/// sample, or trick play shows garbage.
struct SegmentIFrameSyncRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-iframe-not-sync", severity: .error,
        summary: "A segment of an EXT-X-I-FRAMES-ONLY playlist does not start with a sync sample (not an I-frame).",
        specSection: "rfc8216bis-22 4.4.3.6 (RFC 8216 4.3.3.6); ISO/IEC 14496-12 8.8.3.1")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard context.segments?.iFramesOnly == true, let segment = context.segment(at: line),
            case .measured(let media) = segment.reading,
            media.startsWithSyncSample == false
        else { return }
        context.report(
            Self.kind,
            "this I-frame playlist's segment starts with a sample that is not a sync sample: its byte range must cover an I-frame "
                + "(an IDR picture) and start at its fragment", line: line)
    }
}

/// The byte range of an I-frame segment MUST NOT include its Media Initialization Section (rfc8216bis
/// 4.4.3.6): a client loading I-frames in any order reads the init segment from EXT-X-MAP or the start of
/// the resource.
struct SegmentIFrameInitRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-iframe-with-init", severity: .error,
        summary: "The byte range of an I-frame segment includes the Media Initialization Section ('moov').",
        specSection: "rfc8216bis-22 4.4.3.6 (RFC 8216 4.3.3.6)")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard context.segments?.iFramesOnly == true, let segment = context.segment(at: line),
            case .measured(let media) = segment.reading,
            media.holdsInitSection
        else { return }
        context.report(
            Self.kind,
            "this I-frame segment's byte range holds a 'moov' box, the Media Initialization Section: start the range after it "
                + "(at the I-frame's 'moof'), and name the init section with EXT-X-MAP", line: line)
    }
}
