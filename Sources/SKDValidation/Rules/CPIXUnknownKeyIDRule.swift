import HLS
import MP4
import SKDKeys

/// A key id the playlist names (KEYID of any system, or in a FairPlay URI; in media keys and a master's
/// session keys) must be one of the key server's document: a key id it does not know is a key no license
/// server will deliver.
struct CPIXUnknownKeyIDRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "CPIX-kid-unknown", severity: .error,
        summary: "A key id in the playlist (KEYID, or in an skd: URI) is not a ContentKey of the CPIX document.",
        specSection: "CPIX 2.4: ContentKey")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false
    static let keyTruth: KeyTruthSource? = .cpix

    private var reported: Set<Int> = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, truth.checksCPIX, tag.name == .key || tag.name == .sessionKey,
            let attributes = context.reader.currentAttributes,
            let kid = KeyIDInURI.named(by: attributes, variables: context.reader.variables),
            case .success(let document)? = truth.cpixDocument(naming: kid), document.key(kid) == nil,
            reported.insert(line.raw.number).inserted
        else { return }
        context.report(Self.kind, "this key names KID \(kid.uuid), which the CPIX document \(document.path) does not have", line: line)
    }
}
