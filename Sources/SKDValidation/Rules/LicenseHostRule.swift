import HLS
import SKDKeys
import SKDTemplate

/// The https license URL a player derives from an `skd://host/…` URI must point at a server the operator
/// trusts (`--allow-host`, or the template's `allow_hosts`): a typo'd or stale host sends every license
/// request of the title somewhere else.
package struct LicenseHostRule: ValidationRule {
    package static let kind = DiagnosticKind(
        id: "TPL-host-not-allowed", severity: .error,
        summary:
            "The https license URL derived from a FairPlay key URI is on a host not allowed (hosts given, the template's allow_hosts).",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard !context.allowHosts.isEmpty, let key = context.key, key.isFairPlay, let uri = key.uri,
            case .url(_, let host) = LicenseURL.derive(fromKeyURI: uri), !LicenseURL.isAllowed(host: host, by: context.allowHosts),
            let attribute = tag.attributes?["URI"]
        else { return }
        context.report(
            Self.kind,
            "players will ask \(host) for the license; allowed: \(context.allowHosts.joined(separator: ", "))",
            line: line, column: attribute.valueColumn + 1 + (uri.hasPrefix("skd://") ? 6 : 0))
    }
}
