import HLS

/// The playlist and the media must agree whether samples are encrypted: a SAMPLE-AES key over an init
/// segment with no protected track makes players try to decrypt clear samples; clear segments (no key,
/// or METHOD=NONE) over a protected init segment cannot be played at all.
struct MediaEncryptionMismatchRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "MEDIA-encryption-mismatch", severity: .error,
        summary: "A key period says encrypted over clear media, or clear over encrypted media (the init segment's sample entries).",
        specSection: "ISO/IEC 14496-12 8.12 (protected sample entries); RFC 8216 4.3.2.4")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .media

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, case .read(let segment, let file) = truth.initSegment else { return }
        let period = truth.period(context)
        let protected = segment.tracks.filter(\.isEncrypted)
        if let key = period.encrypting.first(where: \.encryptsSamples), protected.isEmpty {
            context.report(
                Self.kind,
                "this key (METHOD=\(key.method)) says the samples are encrypted, and the init segment \(file) has no protected track: "
                    + "clear media needs METHOD=NONE, or the media must be packaged encrypted",
                onLine: key.line)
        } else if period.encrypting.isEmpty, let track = protected.first {
            context.report(
                Self.kind,
                "this segment is clear to the playlist (no key in force), and its init segment \(file) is encrypted "
                    + "('\(track.scheme ?? "?")', KID \(track.defaultKID?.uuid ?? "none")): add the key, or use clear media",
                line: line)
        }
    }
}
