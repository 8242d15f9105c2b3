import HLS
import SKDKeys
import SKDTemplate

/// `skd:` without `//` is a valid URI, but the host-and-path form the entitlement pattern and most
/// resource loaders expect (`skd://server/path`, turned into `https://server/path`) needs the slashes.
struct FairPlaySlashesRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-skd-without-slashes", severity: .warning,
        summary: "A FairPlay key URI is skd: without //, so a resource loader cannot turn it into an https URL.",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        // (A URI that names nothing, `skd:` or `skd:/`, is FPS-uri-empty's.)
        guard let key = context.key, let uri = key.uri, uri.hasPrefix("skd:"), !uri.hasPrefix("skd://"),
            LicenseURL.emptiness(of: uri) == nil,
            let attribute = tag.attributes?["URI"]
        else { return }
        context.report(
            Self.kind, "write skd://\(uri.dropFirst(4)) if the part after skd: names a server; leave it if the app knows",
            line: line, column: attribute.valueColumn + 1)
    }
}
