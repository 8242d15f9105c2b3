import HLS

/// Timestamps run on from one segment to the next unless EXT-X-DISCONTINUITY says otherwise (section 3:
/// timestamps MUST continue uninterrupted, the only exceptions being segments signaled as discontinuities):
/// a jump or an overlap without it desynchronises audio and video or stalls the player. A step of more than 0.2 s from where the previous segment ended is
/// reported.
struct SegmentContinuityRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-timestamp-jump", severity: .error,
        summary: "A segment's first timestamp does not follow the previous segment's end, and no EXT-X-DISCONTINUITY says so.",
        specSection: "rfc8216bis-22 3 (RFC 8216 3); rfc8216bis-22 4.4.4.3")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard context.segments?.iFramesOnly == false, let segment = context.segment(at: line), !segment.discontinuity,
            case .measured(let media) = segment.reading,
            let start = media.startTime, let previous = context.segments?.previous,
            case .measured(let before) = previous.reading, before.container == media.container,
            let end = before.startTime.flatMap({ start in before.duration.map { start + $0 } })
        else { return }
        let step = start - end
        guard abs(step) > 0.2 else { return }
        context.report(
            Self.kind,
            "this segment starts at \(SegmentDurationRule.seconds(start)) s, and the segment on line \(previous.line) ends at "
                + "\(SegmentDurationRule.seconds(end)) s (\(step > 0 ? "a gap" : "an overlap") of \(SegmentDurationRule.seconds(abs(step))) s): "
                + "put EXT-X-DISCONTINUITY before this segment, or fix the timestamps",
            line: line)
    }
}

/// EXT-X-DISCONTINUITY MUST mark a change of file format or of the tracks' formats (RFC 8216 4.3.2.3,
/// rfc8216bis 4.4.4.3): a player that is not told keeps feeding the old decoder.
struct SegmentFormatChangeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-format-change", severity: .error,
        summary: "A segment's file format or codecs differ from the segment before it, and no EXT-X-DISCONTINUITY says so.",
        specSection: "RFC 8216 4.3.2.3; rfc8216bis-22 4.4.4.3")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line), !segment.discontinuity, case .measured(let media) = segment.reading,
            let previous = context.segments?.previous, case .measured(let before) = previous.reading
        else { return }
        let what: String
        if before.container != media.container {
            what = "is \(media.container.rawValue), and the segment on line \(previous.line) is \(before.container.rawValue)"
        } else if before.codecs.count == media.codecs.count, Self.formats(before.codecs) != Self.formats(media.codecs) {
            // Formats only, where each segment names one for each of its streams: a TS segment cut before an IDR
            // has no SPS to give a profile, and an AAC one may show no ADTS header at its start.
            what =
                "has \(media.codecs.joined(separator: ", ")), and the segment on line \(previous.line) has \(before.codecs.joined(separator: ", "))"
        } else {
            return
        }
        context.report(Self.kind, "this segment \(what): put EXT-X-DISCONTINUITY before it", line: line)
    }

    private static func formats(_ codecs: [String]) -> Set<Substring> { Set(codecs.map { $0.prefix { $0 != "." } }) }
}
