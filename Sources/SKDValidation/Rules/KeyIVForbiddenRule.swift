import HLS

/// rfc8216bis 4.4.4.4: with METHOD=SAMPLE-AES-CTR "The IV attribute MUST NOT be present", and an EXT-X-KEY
/// with AES-256-GCM "MUST NOT have an IV attribute" (each segment carries its own IV, and 'cenc' its
/// per-sample IVs).
struct KeyIVForbiddenRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-iv-forbidden", severity: .error,
        summary: "A key with METHOD=SAMPLE-AES-CTR or AES-256-GCM has an IV attribute.",
        specSection: "rfc8216bis-22 4.4.4.4 (METHOD)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, ["SAMPLE-AES-CTR", "AES-256-GCM"].contains(key.method), let iv = tag.attributes?["IV"] else { return }
        let why = key.method == "AES-256-GCM" ? "each segment starts with its own 16-octet IV" : "'cenc' carries an IV per sample"
        context.report(
            Self.kind, "METHOD=\(key.method) must not have an IV attribute (\(why)); remove IV", line: line,
            column: iv.column)
    }
}
