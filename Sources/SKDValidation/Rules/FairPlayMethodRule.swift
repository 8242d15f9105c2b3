import HLS
import SKDKeys

/// A FairPlay key must use METHOD=SAMPLE-AES: FairPlay Streaming decrypts sample-encrypted (cbcs) media only.
struct FairPlayMethodRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-method", severity: .error,
        summary: "A FairPlay key (KEYFORMAT com.apple.streamingkeydelivery) must have METHOD=SAMPLE-AES.",
        specSection: "Apple HLS Authoring Specification for Apple Devices (FairPlay Streaming encryption)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, key.isFairPlay, !key.method.isEmpty, key.method != FairPlay.method else {
            return
        }
        let column = tag.attributes?["METHOD"]?.valueColumn ?? 1
        context.report(
            Self.kind, "this FairPlay key has METHOD=\(key.method); FairPlay decrypts SAMPLE-AES only: write METHOD=SAMPLE-AES",
            line: line, column: column)
    }
}
