import HLS

/// The rules that tie the low-latency tags of rfc8216bis together: EXT-X-PART-INF "is REQUIRED if a
/// Playlist contains one or more EXT-X-PART tags" (4.4.3.7); CAN-SKIP-DATERANGES requires CAN-SKIP-UNTIL
/// (4.4.3.8); a playlist with EXT-X-ENDLIST has no EXT-X-PRELOAD-HINT (4.4.3.4): nothing is coming; and
/// PART-TARGET is "the maximum duration of any Partial Segment" (4.4.3.7); and EXT-X-DISCONTINUITY, EXT-X-KEY,
/// EXT-X-MAP and EXT-X-PROGRAM-DATE-TIME, which apply to a parent segment and so to its first part, "MUST
/// appear before the first EXT-X-PART tag of that Parent Segment" (4.4.4.9).
struct LowLatencyRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-low-latency", severity: .error,
        summary: "Low-latency tags that need each other: EXT-X-PART without EXT-X-PART-INF, CAN-SKIP-DATERANGES "
            + "without CAN-SKIP-UNTIL, EXT-X-PRELOAD-HINT in an ended playlist.",
        specSection: "bis 4.4.3.7")

    static let tags: Set<TagName>? = [
        .part, .partInf, .preloadHint, .endList, .serverControl, .discontinuity, .key, .map, .programDateTime,
    ]
    static let watchesSegments = true

    /// The first part of the parent segment being read, if it has one yet.
    private var firstPartOfParent: Int?

    private var firstPart: RulePlace?
    private var hasPartInf = false
    private var partTarget: Double?
    private var firstHint: RulePlace?
    private var endList: Int?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .discontinuity, .key, .map, .programDateTime:
            guard let first = firstPartOfParent, let name = tag.name else { return }
            context.report(
                Self.kind,
                "#\(name.rawValue) applies to the parent segment and so to its first part: move it above that part's EXT-X-PART "
                    + "(line \(first)) (rfc8216bis 4.4.4.9)",
                line: line, column: 1)
        case .part:
            if firstPart == nil { firstPart = context.place(line) }
            if firstPartOfParent == nil { firstPartOfParent = line.raw.number }
            if let partTarget, let duration = tag.decimalFloat("DURATION"), duration > partTarget,
                let attribute = tag.attributes?["DURATION"]
            {
                context.report(
                    Self.kind, "this part lasts \(attribute.text) s, longer than PART-TARGET=\(partTarget) (rfc8216bis 4.4.3.7)",
                    line: line, column: attribute.column)
            }
        case .partInf:
            hasPartInf = true
            partTarget = tag.decimalFloat("PART-TARGET")
        case .preloadHint: if firstHint == nil { firstHint = context.place(line) }
        case .endList: if endList == nil { endList = line.raw.number }
        case .serverControl:
            guard let dateRanges = tag.attributes?["CAN-SKIP-DATERANGES"], tag.attributes?["CAN-SKIP-UNTIL"] == nil else {
                return
            }
            context.report(
                Self.kind, "CAN-SKIP-DATERANGES needs CAN-SKIP-UNTIL on the same tag (rfc8216bis 4.4.3.8)", line: line,
                column: dateRanges.column)
        default:
            break
        }
    }

    /// A run of segments is judged at its first (a segment ends its parent's parts, and a run holds no part): the
    /// segments after it change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        firstPartOfParent = nil
    }

    mutating func finish(in context: RuleContext) {
        if let firstPart, !hasPartInf {
            context.report(
                Self.kind, "EXT-X-PART needs an EXT-X-PART-INF with PART-TARGET in the playlist (rfc8216bis 4.4.3.7)", at: firstPart)
        }
        if let firstHint, let endList {
            context.report(
                Self.kind,
                "EXT-X-PRELOAD-HINT in a playlist that has EXT-X-ENDLIST (line \(endList)): nothing more is coming (rfc8216bis 4.4.3.4)",
                at: firstHint)
        }
    }
}
