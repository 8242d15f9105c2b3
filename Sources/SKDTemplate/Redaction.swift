/// Keeps secret values (an ExpressPlay token, say) out of everything skdpack shows: messages, reports,
/// diffs, the command line it records.
public struct Redaction: Sendable {
    /// What a secret is shown as.
    public static let placeholder = "REDACTED"

    /// The secret values, longest first, so that one secret inside another is not half-replaced.
    private let secrets: [String]

    public init(secrets: some Sequence<String>) {
        self.secrets = Set(secrets.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    public var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every secret, as written and as percent-encoded in a URI, replaced by `REDACTED`.
    public func redact(_ text: String) -> String {
        var text = text
        for secret in secrets {
            for form in Set([secret, URIEscaping.encode(secret, .pathOrQuery), URIEscaping.encode(secret, .queryValue)]) {
                text = text.replacing(form, with: Self.placeholder)
            }
        }
        return text
    }
}
