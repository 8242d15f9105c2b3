import HLS

/// METHOD is an enumerated-string with a closed set of values; a player does not decrypt with a method it
/// does not know (RFC 8216 defines NONE, AES-128, SAMPLE-AES; rfc8216bis adds SAMPLE-AES-CTR and the
/// AES-256 methods).
struct KeyMethodUnknownRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-method-unknown", severity: .error,
        summary: "METHOD is none of NONE, AES-128, AES-256, AES-256-CTR, AES-256-GCM, SAMPLE-AES, SAMPLE-AES-CTR.",
        specSection: "bis 4.4.4.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    static let knownMethods: Set<String> = [
        "NONE", "AES-128", "AES-256", "AES-256-CTR", "AES-256-GCM", "SAMPLE-AES", "SAMPLE-AES-CTR",
    ]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = KeyTag(tag), !key.method.isEmpty, !Self.knownMethods.contains(key.method),
            let attribute = tag.attributes?["METHOD"]
        else { return }
        let hint =
            Self.knownMethods.first { $0.lowercased() == key.method.lowercased() }
            .map { "; enumerated-strings are case-sensitive: write \($0)" }
            ?? "; use NONE, AES-128, AES-256, AES-256-CTR, AES-256-GCM, SAMPLE-AES or SAMPLE-AES-CTR"
        context.report(Self.kind, "METHOD=\(key.method) is not a known method\(hint)", line: line, column: attribute.valueColumn)
    }
}
