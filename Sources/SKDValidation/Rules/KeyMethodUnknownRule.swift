import HLS

/// METHOD is an enumerated-string with a closed set of values; a player does not decrypt with a method it
/// does not know. rfc8216bis 4.4.4.4 defines NONE, AES-128 and SAMPLE-AES (required of clients), and
/// SAMPLE-AES-CTR and AES-256-GCM (clients MAY support them): nothing else (hls.js's AES-256 and
/// AES-256-CTR are its own).
struct KeyMethodUnknownRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-method-unknown", severity: .error,
        summary: "METHOD is none of NONE, AES-128, SAMPLE-AES, SAMPLE-AES-CTR, AES-256-GCM.",
        specSection: "rfc8216bis-22 4.4.4.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    /// In the order the draft names them.
    static let definedMethods = ["NONE", "AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR", "AES-256-GCM"]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, !key.method.isEmpty, !Self.definedMethods.contains(key.method),
            let attribute = tag.attributes?["METHOD"]
        else { return }
        let hint =
            Self.definedMethods.first { $0.lowercased() == key.method.lowercased() }
            .map { "; enumerated-strings are case-sensitive: write \($0)" }
            ?? "; rfc8216bis 4.4.4.4 defines NONE, AES-128 and SAMPLE-AES (every client), SAMPLE-AES-CTR and AES-256-GCM (some)"
        context.report(Self.kind, "METHOD=\(key.method) is not a method HLS defines\(hint)", line: line, column: attribute.valueColumn)
    }
}
