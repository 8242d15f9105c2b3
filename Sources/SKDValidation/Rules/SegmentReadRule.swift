import HLS

/// A media segment that cannot be read, or does not hold together (its offset and box path, or packet
/// offset, given): players fail on it too.
struct SegmentReadRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-unreadable", severity: .error,
        summary: "A media segment is missing, unreadable or malformed (offset and box path, or packet offset, given).",
        specSection: "RFC 8216 3 (Media Segments); ISO/IEC 14496-12 8.8; ISO/IEC 13818-1 2.4.3")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line), case .failed(let reason) = segment.reading else { return }
        context.report(Self.kind, "this segment cannot be used: \(reason)", line: line)
    }
}

/// Media segments `--segments` does not read (remote URIs, AES-128 segments, segments whose init segment
/// is unreadable): said once per playlist, with how many, so that a clean run is not taken for a checked one.
struct SegmentNotReadRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-not-read", severity: .info,
        summary:
            "Media segments the segment check did not read (remote, encrypted whole with AES-128, or without a readable init segment).",
        specSection: "RFC 8216 3")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    private var first: (place: RulePlace, reason: String)?
    private var count = 0

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line) else { return }
        let reason: String
        switch segment.reading {
        case .remote(let uri): reason = "\(uri) is not a file here"
        case .skipped(let why) where !why.contains("EXT-X-GAP"): reason = why
        default: return
        }
        count += 1
        if first == nil { first = (context.place(line), reason) }
    }

    mutating func finish(in context: RuleContext) {
        guard let first else { return }
        let others = count > 1 ? " (and \(count - 1) more segments not read)" : ""
        context.report(Self.kind, "this segment was not read: \(first.reason)\(others)", at: first.place)
    }
}
