import HLS
import SKDKeys
import SKDTemplate

/// A FairPlay key URI that names nothing: `skd://`, `skd:///`, `skd:` alone, `skd://?x=1` without a title,
/// or a title parameter of the entitlement form with no value (`?cid=`). The app's resource loader turns
/// the URI into the content id or license URL it asks the key server with: from these it gets an empty one,
/// and every title packaged so asks for the same key (a template rendered with an empty value, or a
/// placeholder never filled).
package struct FairPlayURIEmptyRule: ValidationRule {
    package static let kind = DiagnosticKind(
        id: "FPS-uri-empty", severity: .error,
        summary: "A FairPlay key URI names no key: nothing after skd://, or an empty cid= (content id) in its query.",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, key.isFairPlay, let uri = key.uri, let attribute = tag.attributes?["URI"],
            let problem = LicenseURL.emptiness(of: uri)
        else { return }
        context.report(Self.kind, problem, line: line, column: attribute.valueColumn + 1)
    }
}
