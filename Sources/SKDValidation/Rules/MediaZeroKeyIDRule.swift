import HLS

/// Some packagers write an all-zero default KID in `tenc` and carry the real one elsewhere (per sample
/// group): the init segment then names no key, and nothing can be checked against it.
struct MediaZeroKeyIDRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "MEDIA-kid-zero", severity: .warning,
        summary: "An encrypted init segment's default KID is all zeros: it names no key, so the playlist's key cannot be checked.",
        specSection: "ISO/IEC 23001-7 8.2")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .media

    private var reported: Set<Int> = []

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, let map = truth.map, case .read(let segment, let file) = truth.initSegment,
            segment.tracks.contains(where: { $0.isEncrypted && $0.defaultKID?.isZero == true }), reported.insert(map.line).inserted
        else { return }
        context.report(Self.kind, "the init segment \(file) has an all-zero default KID: the key's KID cannot be checked", onLine: map.line)
    }
}
