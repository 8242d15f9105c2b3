import HLS
import SKDKeys

/// FairPlay decrypts fMP4 encrypted with the `cbcs` scheme only: a FairPlay key over `cenc` (or `cens`,
/// `cbc1`) media announces a key Safari cannot use, and playback fails or shows garbage.
struct MediaSchemeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "MEDIA-scheme-not-cbcs", severity: .error,
        summary: "A FairPlay SAMPLE-AES key is over fMP4 whose init segment is not encrypted with 'cbcs'.",
        specSection: "ISO/IEC 23001-7 10.4 (the cbcs scheme); FairPlay Streaming decrypts cbcs only (Apple)")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .media

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, case .read(let segment, let file) = truth.initSegment,
            let key = truth.period(context).fairPlay, key.method == FairPlay.method
        else { return }
        guard let track = segment.tracks.first(where: { $0.isEncrypted && $0.scheme != "cbcs" }) else { return }
        context.report(
            Self.kind,
            "this FairPlay key is over \(file), whose \(track.handler.rawValue) track is encrypted with "
                + (track.scheme.map { "'\($0)'" } ?? "no scheme named (its 'schm' box is missing)") + ": "
                + "FairPlay decrypts 'cbcs' only; package the media with cbcs, or remove the FairPlay key",
            onLine: key.line)
    }
}
