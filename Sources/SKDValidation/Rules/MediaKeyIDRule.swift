import HLS

/// A key that names a key id (KEYID, or `skd://<kid>`) must name the one the media was encrypted with: the
/// init segment's default KID. Another one fetches a license for a key that cannot decrypt.
struct MediaKeyIDRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "MEDIA-kid-mismatch", severity: .error,
        summary: "The key id a key names (KEYID, or in its skd: URI) differs from the init segment's default KID ('tenc').",
        specSection: "ISO/IEC 23001-7 8.2; RFC 8216 4.3.2.4")

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .media

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, case .read(let segment, let file) = truth.initSegment else { return }
        let kids = segment.tracks.filter(\.isEncrypted).compactMap(\.defaultKID).filter { !$0.isZero }
        guard !kids.isEmpty else { return }
        for key in truth.period(context).encrypting {
            guard let named = key.keyID, !kids.contains(named) else { continue }
            context.report(
                Self.kind,
                "this key names KID \(named.uuid), and the init segment \(file) was encrypted with KID "
                    + "\(kids.map(\.uuid).joined(separator: ", ")): the key would not decrypt these segments",
                onLine: key.line)
        }
    }
}
