import CPIX
import HLS

/// A FairPlay key must be the one the key server's document gives the track in that period: its
/// FairPlay signaling (HLSSignalingData's `EXT-X-KEY`, or URIExtXKey), or, where the document has none,
/// at least the key id.
struct CPIXSignalingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "CPIX-signaling-mismatch", severity: .error,
        summary: "A FairPlay key differs from the CPIX document's FairPlay signaling (or key id) for its track and period.",
        specSection: "CPIX 2.4: DRMSystem/HLSSignalingData, ContentKeyUsageRule")
    static let keyTruth: KeyTruthSource? = .cpix

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, truth.checksCPIX, let key = truth.period(context).fairPlay,
            case .success(let chosen)? = truth.cpixKey(forKeyOn: key.line, naming: key.keyID),
            case .success(let document)? = truth.cpixDocument(naming: key.keyID)
        else { return }
        let tag = KeyTag(attributes: key.attributes, isSessionKey: false)
        let uri = tag.uri.map { context.reader.variables.substitute($0).text }
        var differences: [String] = []
        if let signaling = CPIXFairPlayKey(document: document, kid: chosen.kid) {
            if let expected = signaling.keyURI, uri != expected {
                differences.append("URI \"\(uri ?? "")\" where it gives \"\(expected)\"")
            }
            if let media = signaling.media {
                if media.method != tag.method { differences.append("METHOD=\(tag.method) where it gives \(media.method)") }
                let versions = tag.keyFormatVersions ?? FairPlay.keyFormatVersions
                if (media.keyFormatVersions ?? FairPlay.keyFormatVersions) != versions {
                    differences.append(
                        "KEYFORMATVERSIONS \"\(versions)\" where it gives \"\(media.keyFormatVersions ?? FairPlay.keyFormatVersions)\"")
                }
                let iv = tag.iv.map { "0x" + $0.lowercased() }
                if media.iv != iv { differences.append("IV \(iv ?? "absent") where it gives \(media.iv ?? "none")") }
            }
        } else if let named = key.keyID, named != chosen.kid {
            differences.append("KID \(named.uuid) where the track's key is \(chosen.kid.uuid)")
        }
        guard !differences.isEmpty else { return }
        context.report(
            Self.kind,
            "this FairPlay key is not the one \(document.path) gives this track and period (key \(chosen.kid.uuid)): "
                + PrintableText.escaping(differences.joined(separator: "; ")),
            onLine: key.line)
    }
}
