import HLS
import MP4

/// The samples of a fragment are encrypted under a key id (its `seig` group's, or the init segment's
/// `tenc` default): it must be one the playlist's key period names (a KEYID, or an `skd:` URI's), or,
/// where the playlist names none, the init segment's default. A fragment rotated to a key in `seig` the
/// playlist never announces cannot be decrypted with the key the player fetched.
struct SegmentKeyIDRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "SEG-kid-mismatch", severity: .error,
        summary: "A fragment's samples use a key id ('seig' or 'tenc') that the key period does not name.",
        specSection: "ISO/IEC 23001-7 6 and 10.1 (seig); RFC 8216 4.3.2.4")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .segments

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let segment = context.segment(at: line), case .measured(let media) = segment.reading, !media.keyIDs.isEmpty,
            let truth = context.keyTruth
        else { return }
        var defaults: [KeyID] = []
        var file = ""
        if case .read(let initSegment, let name) = truth.initSegment {
            defaults = initSegment.tracks.filter(\.isEncrypted).compactMap(\.defaultKID).filter { !$0.isZero }
            file = name
        }
        // A fragment under its init segment's own default KID is MEDIA-kid-mismatch's, at the key line.
        let rotated = media.keyIDs.filter { !defaults.contains($0) }
        let named = truth.period(context).encrypting.compactMap(\.keyID)
        let expected = named.isEmpty ? defaults : named
        let foreign = rotated.filter { !expected.contains($0) }
        guard !foreign.isEmpty, !expected.isEmpty else { return }
        let source = named.isEmpty ? "the init segment \(file) names" : "the key period names"
        context.report(
            Self.kind,
            "this segment's samples are encrypted with KID \(foreign.map(\.uuid).joined(separator: ", ")) (its 'seig' group), and \(source) "
                + "\(expected.map(\.uuid).joined(separator: ", ")): the key a player fetches would not decrypt them; "
                + "announce the rotated key in the playlist, or package with the playlist's key",
            line: line)
    }
}
