import HLS

/// rfc8216bis 4.4.4.9: "The duration of each Partial Segment MUST be at least 85% of the Part Target
/// Duration, with the exception of Partial Segments with the INDEPENDENT=YES or GAP=YES attribute, Partial
/// Segments that are immediately followed by a Partial Segment with a GAP=YES attribute, and the final
/// Partial Segment of any Parent Segment." A player sizes its buffer and its reload interval by the part
/// target; a short part starves it.
///
/// A part is judged once what follows it is known: the next part (a gap or not), or the segment line that
/// makes it its parent's last. The parts after the last segment belong to a parent still being written, so
/// the last of them may yet be its final one: it is not judged.
struct PartDurationRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-part-too-short", severity: .error,
        summary: "A Partial Segment lasts less than 85% of PART-TARGET and is none of the draft's exceptions.",
        specSection: "bis 4.4.4.9")

    static let tags: Set<TagName>? = [.part, .partInf]
    static let watchesSegments = true

    private var partTarget: Double?
    /// The part read last, not yet judged, when it is short and not exempt by itself.
    private var pending: (text: String, place: RulePlace)?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .partInf:
            partTarget = tag.decimalFloat("PART-TARGET")
        case .part:
            let list = tag.attributes
            let isGap = list?.attribute("GAP", is: "YES") ?? false
            // The part before is followed by this one: exempt if this one is a gap, judged otherwise.
            if let pending, !isGap, let partTarget { report(pending, partTarget, in: context) }
            pending = nil
            guard let partTarget, let duration = tag.decimalFloat("DURATION"), let attribute = list?["DURATION"],
                duration < 0.85 * partTarget, !isGap, !(list?.attribute("INDEPENDENT", is: "YES") ?? false)
            else { return }
            pending = (attribute.text, context.place(line, column: attribute.column))
        default:
            break
        }
    }

    /// A run of segments is judged at its first (a segment ends its parent's parts, and a run holds no part): the
    /// segments after it change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    /// The segment line ends the parent: its last part is its final one.
    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        pending = nil
    }

    private func report(_ part: (text: String, place: RulePlace), _ target: Double, in context: RuleContext) {
        context.report(
            Self.kind,
            "this part lasts \(part.text) s, under 85% of PART-TARGET=\(target) (\(Self.minimum(target)) s); only an INDEPENDENT "
                + "or GAP part, one before a GAP part or a segment's last may be shorter (rfc8216bis 4.4.4.9)",
            at: part.place)
    }

    /// 85% of `target`, to the millisecond.
    private static func minimum(_ target: Double) -> String {
        let value = (target * 850).rounded() / 1000
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
