import HLS

/// The rules that tie the low-latency tags of rfc8216bis together: EXT-X-PART-INF "is REQUIRED if a
/// Playlist contains one or more EXT-X-PART tags" (4.4.3.7); CAN-SKIP-DATERANGES requires CAN-SKIP-UNTIL
/// (4.4.3.8); a playlist with EXT-X-ENDLIST has no EXT-X-PRELOAD-HINT (4.4.3.4): nothing is coming; and
/// PART-TARGET is "the maximum duration of any Partial Segment" (4.4.3.7).
struct LowLatencyRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-low-latency", severity: .error,
        summary: "Low-latency tags that need each other: EXT-X-PART without EXT-X-PART-INF, CAN-SKIP-DATERANGES "
            + "without CAN-SKIP-UNTIL, EXT-X-PRELOAD-HINT in an ended playlist.",
        specSection: "bis 4.4.3.7")

    static let tags: Set<TagName>? = [.part, .partInf, .preloadHint, .endList, .serverControl]
    static let watchesSegments = false

    private var firstPart: RulePlace?
    private var hasPartInf = false
    private var partTarget: Double?
    private var firstHint: RulePlace?
    private var endList: Int?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .part:
            if firstPart == nil { firstPart = context.place(line) }
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
