import HLS

/// An init segment `EXT-X-MAP` names that cannot be read, or is not an init segment: nothing in the
/// playlist can be checked against it, and players will fail on it too.
struct MediaInitUnreadableRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "MEDIA-init-unreadable", severity: .error,
        summary: "An init segment named by EXT-X-MAP is missing, unreadable or malformed (offset and box given).",
        specSection: "ISO/IEC 14496-12 4.2; RFC 8216 4.3.2.5")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .media

    private var reported: Set<Int> = []

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, let map = truth.map, case .failed(let failure) = truth.initSegment,
            reported.insert(map.line).inserted
        else { return }
        context.report(Self.kind, "the init segment cannot be used: \(failure)", onLine: map.line)
    }
}
