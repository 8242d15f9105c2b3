import HLS

/// EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE number the segments that follow them, so they
/// "MUST appear before the first Media Segment" (RFC 8216 4.3.3.2, 4.3.3.3), and the discontinuity
/// sequence before any EXT-X-DISCONTINUITY.
struct SequenceTagPlacementRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-sequence-tag-late", severity: .error,
        summary: "EXT-X-MEDIA-SEQUENCE or EXT-X-DISCONTINUITY-SEQUENCE comes after the first segment (or the "
            + "discontinuity sequence after an EXT-X-DISCONTINUITY).",
        specSection: "4.3.3.2")

    static let tags: Set<TagName>? = [.discontinuity, .mediaSequence, .discontinuitySequence]

    private var firstSegment: Int?
    private var firstDiscontinuity: Int?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .discontinuity:
            if firstDiscontinuity == nil { firstDiscontinuity = line.raw.number }
        case .mediaSequence, .discontinuitySequence:
            let name = tag.spelledName
            if let firstSegment {
                context.report(
                    Self.kind, "#\(name) must come before the first segment (line \(firstSegment)); move it up", line: line)
            } else if tag.name == .discontinuitySequence, let firstDiscontinuity {
                context.report(
                    Self.kind, "#\(name) must come before any EXT-X-DISCONTINUITY (line \(firstDiscontinuity)) (4.3.3.3)",
                    line: line)
            }
        default:
            break
        }
    }

    /// A run of segments is judged at its first (the first segment is what the tags are placed against): the segments
    /// after it change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        if firstSegment == nil { firstSegment = line.raw.number }
    }
}
