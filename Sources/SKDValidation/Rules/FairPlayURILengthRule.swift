import HLS
import SKDKeys

/// The skd: URI reaches the app's resource loader and, in the entitlement form, becomes the query of an
/// https request: a very long one (a token pasted twice, a runaway template) fails there, far from here.
struct FairPlayURILengthRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-uri-length", severity: .warning,
        summary: "A FairPlay key URI is longer than the limit (2048 bytes by default).",
        specSection: "skdpack: a guard of its own (its limit is a setting), not of the RFC")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, key.isFairPlay, let uri = key.uri,
            uri.utf8.count > context.maximumURILength, let attribute = tag.attributes?["URI"]
        else { return }
        context.report(
            Self.kind,
            "this FairPlay key URI is \(uri.utf8.count) bytes, over the limit of \(context.maximumURILength); shorten it",
            line: line, column: attribute.valueColumn + 1)
    }
}
