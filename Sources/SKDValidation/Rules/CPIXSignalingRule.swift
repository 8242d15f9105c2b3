import CPIX
import HLS
import SKDKeys

/// A FairPlay key must be the one the key server's document gives the track in that period: its
/// FairPlay signaling (HLSSignalingData's `EXT-X-KEY`, or URIExtXKey), or, where the document has none,
/// at least the key id. A master's FairPlay session key must be the document's multivariant signaling
/// (`EXT-X-SESSION-KEY`) of the key it names.
struct CPIXSignalingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "CPIX-signaling-mismatch", severity: .error,
        summary:
            "A FairPlay key (or session key) differs from the CPIX document's FairPlay signaling (or key id) for its track and period.",
        specSection: "CPIX 2.4: DRMSystem/HLSSignalingData, ContentKeyUsageRule")

    static let tags: Set<TagName>? = [.sessionKey]
    static let keyTruth: KeyTruthSource? = .cpix

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, truth.checksCPIX, let key = truth.period(context).fairPlay,
            case .success(let chosen)? = truth.cpixKey(forKeyOn: key.line, naming: key.keyID),
            case .success(let document)? = truth.cpixDocument(naming: key.keyID)
        else { return }
        let tag = KeyTag(attributes: key.attributes, isSessionKey: false)
        var differences: [String] = []
        if let signaling = truth.signaling(of: chosen.kid) {
            differences = Self.differences(tag, in: context, from: signaling.media, uri: signaling.keyURI)
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

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, truth.checksCPIX, tag.name == .sessionKey, let key = context.key, key.isFairPlay,
            let attributes = context.reader.currentAttributes,
            let kid = KeyIDInURI.named(by: attributes, variables: context.reader.variables),
            case .success(let document)? = truth.cpixDocument(naming: kid),
            let session = truth.signaling(of: kid)?.session
        else { return }
        let differences = Self.differences(key.tag, in: context, from: session, uri: session.uri)
        guard !differences.isEmpty else { return }
        context.report(
            Self.kind,
            "this FairPlay session key is not the one \(document.path) gives key \(kid.uuid) in the multivariant playlist: "
                + PrintableText.escaping(differences.joined(separator: "; ")),
            line: line)
    }

    /// What differs between `tag` and the document's `expected` key line (its URI `uri`).
    private static func differences(_ tag: KeyTag, in context: RuleContext, from expected: KeyAttributes?, uri: String?) -> [String] {
        var differences: [String] = []
        let actual = tag.uri.map { context.reader.variables.substitute($0).text }
        if let uri, actual != uri { differences.append("URI \"\(actual ?? "")\" where it gives \"\(uri)\"") }
        guard let expected else { return differences }
        if expected.method != tag.method { differences.append("METHOD=\(tag.method) where it gives \(expected.method)") }
        let versions = tag.keyFormatVersions ?? FairPlay.keyFormatVersions
        let expectedVersions = expected.keyFormatVersions ?? FairPlay.keyFormatVersions
        if expectedVersions != versions { differences.append("KEYFORMATVERSIONS \"\(versions)\" where it gives \"\(expectedVersions)\"") }
        let iv = tag.iv.map { "0x" + $0.lowercased() }
        if expected.iv != iv { differences.append("IV \(iv ?? "absent") where it gives \(expected.iv ?? "none")") }
        return differences
    }
}
