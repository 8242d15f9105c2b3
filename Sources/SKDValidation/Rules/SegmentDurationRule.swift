import HLS

/// EXTINF is the segment's duration (4.3.2.1): one that differs from what its samples last makes players'
/// timelines drift from the media and seeks land in the wrong segment. More than half a second, or a tenth
/// of the segment, is reported.
struct SegmentDurationRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-extinf-duration", severity: .warning,
        summary: "A segment's EXTINF differs from its measured duration by more than 0.5 s or 10%.",
        specSection: "RFC 8216 4.3.2.1")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        // In an I-frame playlist EXTINF is the time to the next I-frame, not the segment's (4.4.3.6).
        guard context.segments?.iFramesOnly == false, let segment = context.segment(at: line),
            case .measured(let media) = segment.reading,
            let measured = media.duration, let declared = segment.extinf
        else { return }
        let difference = abs(declared - measured)
        guard difference > 0.5 || difference > 0.1 * measured else { return }
        // A segment over the target duration is SEG-over-target's: one mistake, one finding.
        if let target = context.segments?.targetDuration, measured.rounded() > Double(target) { return }
        context.report(
            Self.kind,
            "EXTINF says \(Self.seconds(declared)) s and the segment's samples last \(Self.seconds(measured)) s: "
                + "write EXTINF:\(Self.seconds(measured)),",
            line: line)
    }

    /// Seconds to the millisecond, without trailing zeros (`4.004`, `6`).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let milliseconds = Int((abs(value) * 1000).rounded())
        var text = (value < 0 ? "-" : "") + "\(milliseconds / 1000)"
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return text
    }
}

/// A segment whose samples last longer than the target duration (rounded) breaks 4.3.3.1 whatever its
/// EXTINF says: a live player waits one target duration for the next segment and stalls. Reported where
/// the EXTINF keeps to the target and the media do not (an EXTINF over it is HLS-extinf-over-target's),
/// once per playlist, at the first such segment, with how many there are.
struct SegmentOverTargetRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-over-target", severity: .error,
        summary: "A segment's measured duration, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION (its EXTINF does not).",
        specSection: "RFC 8216 4.3.3.1")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    private var first: (place: RulePlace, measured: Double, target: Int)?
    private var longest = 0.0
    private var count = 0

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard context.segments?.iFramesOnly == false, let segment = context.segment(at: line),
            case .measured(let media) = segment.reading,
            let measured = media.duration, let target = context.segments?.targetDuration, measured.rounded() > Double(target),
            (segment.extinf ?? 0).rounded() <= Double(target)
        else { return }
        count += 1
        longest = max(longest, measured)
        if first == nil { first = (context.place(line), measured, target) }
    }

    mutating func finish(in context: RuleContext) {
        guard let first else { return }
        let others =
            count > 1
            ? " (and \(count - 1) more segment\(count == 2 ? "" : "s") of this playlist, up to \(SegmentDurationRule.seconds(longest)) s)"
            : ""
        context.report(
            Self.kind,
            "this segment's samples last \(SegmentDurationRule.seconds(first.measured)) s, over the target duration of \(first.target) s\(others): "
                + "cut the media into shorter segments, or raise EXT-X-TARGETDURATION to \(Int(longest.rounded())) and correct the EXTINFs",
            at: first.place)
    }
}
