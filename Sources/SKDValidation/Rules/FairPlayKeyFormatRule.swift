import HLS
import SKDKeys

/// An `skd:` URI is a FairPlay key URI: without KEYFORMAT="com.apple.streamingkeydelivery" players do not
/// hand it to FairPlay (the default KEYFORMAT is `identity`, an AES-128 key file).
struct FairPlayKeyFormatRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-keyformat-missing", severity: .error,
        summary: "A key with an skd: URI lacks KEYFORMAT=\"com.apple.streamingkeydelivery\".",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, let uri = key.uri, URIHead(uri).startsInAnyCase(with: "skd:"), !key.isFairPlay else {
            return
        }
        let attribute = tag.attributes?["KEYFORMAT"]
        let message =
            key.hasExplicitKeyFormat
            ? "this key's URI is skd: but its KEYFORMAT is \"\(key.keyFormat)\"; FairPlay keys have KEYFORMAT=\"\(FairPlay.keyFormat)\""
            : "this key's URI is skd: but it has no KEYFORMAT; add KEYFORMAT=\"\(FairPlay.keyFormat)\""
        context.report(Self.kind, message, line: line, column: attribute?.valueColumn ?? tag.valueColumn ?? 1)
    }
}
