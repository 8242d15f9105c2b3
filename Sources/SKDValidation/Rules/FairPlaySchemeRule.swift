import HLS
import SKDKeys

/// The URI of a FairPlay key must be `skd://…`: a near-miss scheme (`sdk://`, `skd:/`, `SKD://`, `skd//`) or
/// another scheme never reaches the app's resource loader as a FairPlay request.
struct FairPlaySchemeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-scheme", severity: .error,
        summary: "A FairPlay key URI does not use the skd scheme (or misspells it: sdk://, SKD://, skd//).",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, let uri = key.uri, let attribute = tag.attributes?["URI"] else { return }
        // (Its first bytes are all the checks read: a long data: URI of another system is not lower-cased whole.)
        let head = URIHead(uri)
        let nearMiss =
            head.startsInAnyCase(with: "sdk:") || head.startsInAnyCase(with: "skd//") || head.startsInAnyCase(with: "skd;")
            || head.startsInAnyCase(with: "sdk//") || head.startsInAnyCase(with: "ksd:") || head.startsInAnyCase(with: "skd.:")
        if nearMiss || (head.startsInAnyCase(with: "skd:") && !head.starts(with: "skd:")) {
            context.report(
                Self.kind, "the URI \(uri.prefix(40)) misspells the FairPlay scheme; write skd://", line: line,
                column: attribute.valueColumn + 1)
        } else if key.isFairPlay, !head.startsInAnyCase(with: "skd:") {
            context.report(
                Self.kind,
                "this FairPlay key's URI is not skd: (\(uri.prefix(40))); the app's resource loader is asked only for skd: URIs",
                line: line, column: attribute.valueColumn + 1)
        }
    }
}
