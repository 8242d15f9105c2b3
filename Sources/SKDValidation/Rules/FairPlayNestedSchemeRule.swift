import HLS
import SKDKeys
import SKDTemplate

/// `skd://https://lic.example.com/fps?cid=42`: a server URL pasted whole after `skd://`. A resource loader
/// that swaps `skd` for `https` requests `https://https://…`, which no player can reach.
struct FairPlayNestedSchemeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-nested-scheme", severity: .error,
        summary: "A FairPlay key URI holds a second scheme (skd://https://…), so the license URL a player derives is https://https://….",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, let uri = key.uri, let scheme = LicenseURL.nestedScheme(in: uri),
            let attribute = tag.attributes?["URI"]
        else { return }
        context.report(
            Self.kind, "remove the \(scheme):// after skd:// (the template's |strip_scheme filter does it)", line: line,
            column: attribute.valueColumn + 1)
    }
}
