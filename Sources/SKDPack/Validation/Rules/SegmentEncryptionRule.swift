import HLS

/// The playlist says whether a segment is encrypted; the segment's bytes must agree. Under a SAMPLE-AES
/// key its samples are protected (fMP4: protected sample entries with `senc` or sample auxiliary data and
/// the `seig` groups that say so; MPEG-TS: stream types 0xDB, 0xCF, 0xC1, 0xC2 of Apple's MPEG-2 Stream
/// Encryption Format); without a key (or METHOD=NONE) none is.
struct SegmentEncryptionRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-encryption-mismatch", severity: .error,
        summary: "A segment's samples are clear under a SAMPLE-AES key, or encrypted where the playlist has no key.",
        specSection: "RFC 8216 4.3.2.4; ISO/IEC 23001-7 7; Apple, MPEG-2 Stream Encryption Format for HTTP Live Streaming")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line), case .measured(let media, _) = segment.reading, let truth = context.keyTruth else {
            return
        }
        let encrypting = truth.period(context).encrypting
        if let key = encrypting.first(where: \.encryptsSamples) {
            if !media.isEncrypted {
                let detail =
                    media.container == .fragmentedMP4
                    ? "none of its \(media.samples ?? 0) samples is protected"
                        + (media.clearDetail.map { " (\($0))" } ?? "")
                    : "its stream types are the clear ones (no 0xDB, 0xCF, 0xC1, 0xC2)"
                context.report(
                    Self.kind,
                    "the key on line \(key.line) (METHOD=\(key.method)) says this segment is encrypted, and \(detail): "
                        + "package it encrypted, or put it under METHOD=NONE (a clear lead)",
                    line: line)
            } else if !media.clearStreams.isEmpty {
                context.report(
                    Self.kind,
                    "under the key on line \(key.line) this segment has streams left clear: \(media.clearStreams.joined(separator: ", ")); "
                        + "a player decrypting SAMPLE-AES expects every audio and video stream encrypted",
                    line: line)
            }
        } else if encrypting.isEmpty, media.isEncrypted {
            let detail =
                media.container == .fragmentedMP4
                ? "\(media.protectedSamples ?? 0) of its \(media.samples ?? 0) samples are protected"
                : "its stream types are SAMPLE-AES ones"
            context.report(
                Self.kind,
                "no key is in force for this segment, and \(detail): add its key, or package it clear",
                line: line)
        }
    }
}
