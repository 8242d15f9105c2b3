import HLS
import SKDKeys

/// The playlist says whether a segment is encrypted; the segment's bytes must agree. Under a SAMPLE-AES
/// key its samples are protected (fMP4: protected sample entries with `senc` or sample auxiliary data and
/// the `seig` groups that say so; MPEG-TS: stream types 0xDB, 0xCF, 0xC1, 0xC2 of Apple's MPEG-2 Stream
/// Encryption Format); without a key (or METHOD=NONE) none is. One finding a key period, at its first
/// segment that disagrees, with how many do; where the init segment already disagrees with the key,
/// MEDIA-encryption-mismatch says so at the key line and this rule says nothing more.
struct SegmentEncryptionRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-encryption-mismatch", severity: .error,
        summary: "A segment's samples are clear under a SAMPLE-AES key, or encrypted where the playlist has no key.",
        specSection: "RFC 8216 4.3.2.4; ISO/IEC 23001-7 7; Apple, MPEG-2 Stream Encryption Format for HTTP Live Streaming")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    /// The first disagreeing segment of the key period at hand, and how many there are.
    private var pending: (serial: Int, place: RulePlace, message: (head: String, tail: String), count: Int)?

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line), case .measured(let media) = segment.reading, let truth = context.keyTruth,
            let message = Self.mismatch(media, truth, context)
        else { return }
        if let current = pending, current.serial == truth.serial {
            pending!.count += 1
            return
        }
        flush(context)
        pending = (truth.serial, context.place(line), message, 1)
    }

    mutating func finish(in context: RuleContext) { flush(context) }

    private mutating func flush(_ context: RuleContext) {
        guard let pending else { return }
        let others = pending.count > 1 ? " (and the \(pending.count - 1) segments after it in this key period)" : ""
        context.report(Self.kind, pending.message.head + others + pending.message.tail, at: pending.place)
        self.pending = nil
    }

    /// What is wrong with `media` under the keys in force, in two parts the count of the period's other
    /// segments goes between; `nil` when they agree or the init segment's disagreement says it already.
    private static func mismatch(
        _ media: MeasuredSegment, _ truth: KeyTruthContext, _ context: RuleContext
    ) -> (head: String, tail: String)? {
        let encrypting = truth.period(context).encrypting
        var initProtected: Bool?
        if media.container == .fragmentedMP4, case .read(let initSegment, _) = truth.initSegment {
            initProtected = initSegment.tracks.contains(where: \.isEncrypted)
        }
        if let key = encrypting.first(where: \.encryptsSamples) {
            guard initProtected != false else { return nil }
            if !media.isEncrypted {
                let detail =
                    media.container == .fragmentedMP4
                    ? "none of its \(media.samples ?? 0) samples is protected" + (media.clearDetail.map { " (\($0))" } ?? "")
                    : "its stream types are the clear ones (no 0xDB, 0xCF, 0xC1, 0xC2)"
                return (
                    "the key on line \(key.line) (METHOD=\(key.method)) says this segment is encrypted, and \(detail)",
                    ": package it encrypted, or put it under METHOD=NONE (a clear lead)"
                )
            }
            guard !media.clearStreams.isEmpty else { return nil }
            return (
                "under the key on line \(key.line) this segment has streams left clear: \(media.clearStreams.joined(separator: ", "))",
                "; a player decrypting SAMPLE-AES expects every audio and video stream encrypted"
            )
        }
        guard encrypting.isEmpty, media.isEncrypted, initProtected != true else { return nil }
        let detail =
            media.container == .fragmentedMP4
            ? "\(media.protectedSamples ?? 0) of its \(media.samples ?? 0) samples are protected" : "its stream types are SAMPLE-AES ones"
        return ("no key is in force for this segment, and \(detail)", ": add its key, or package it clear")
    }
}
