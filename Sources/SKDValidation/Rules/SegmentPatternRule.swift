import HLS
import SKDKeys

/// FairPlay's `cbcs` encrypts video in a pattern of one 16-byte block in ten (crypt 1, skip 9) and audio
/// in every block (no pattern: crypt 0, skip 0), as Apple's MPEG-2 Stream Encryption Format does for
/// SAMPLE-AES and as ISO/IEC 23001-7's `cbcs` scheme lays out for fMP4. A fragment under a FairPlay key
/// whose protected samples use another pattern (in its `seig` group, or the init segment's `tenc`) is
/// one players may fail to decrypt. A warning: the pattern is the practice of Apple's documents and of
/// packagers, and skdpack cites no MUST for it.
struct SegmentPatternRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-fairplay-pattern", severity: .warning,
        summary: "Under a FairPlay key, protected video is not in the 1:9 pattern, or protected audio is in a pattern (cbcs).",
        specSection:
            "ISO/IEC 23001-7 10.4 (cbcs: crypt_byte_block and skip_byte_block); Apple, MPEG-2 Stream Encryption Format for HTTP Live Streaming (video 1 block in 10, audio every block)"
    )

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line), case .measured(let media) = segment.reading,
            let key = context.keyTruth?.period(context).fairPlay, key.method == FairPlay.method
        else { return }
        if let video = media.videoPattern, video.crypt != 1 || video.skip != 9 {
            context.report(
                Self.kind,
                "under the FairPlay key on line \(key.line), this segment's video is encrypted in the pattern \(video.crypt):\(video.skip); "
                    + "FairPlay's cbcs video is 1:9 (one block encrypted in ten)", line: line)
        } else if let audio = media.audioPattern, audio.crypt != 0 || audio.skip != 0 {
            context.report(
                Self.kind,
                "under the FairPlay key on line \(key.line), this segment's audio is encrypted in the pattern \(audio.crypt):\(audio.skip); "
                    + "FairPlay's cbcs audio encrypts every block (no pattern, 0:0)", line: line)
        }
    }
}
