import HLS

/// RFC 8216 4.3.4.2: "Every EXT-X-STREAM-INF tag SHOULD include a CODECS attribute": without it a player
/// must download a variant to learn whether it can decode it.
struct CodecsMissingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-codecs-missing", severity: .warning,
        summary: "An EXT-X-STREAM-INF has no CODECS attribute.", specSection: "4.3.4.2")

    static let tags: Set<TagName>? = [.streamInf]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .streamInf, let list = tag.attributes, list["CODECS"] == nil else { return }
        context.report(
            Self.kind, "add CODECS (e.g. CODECS=\"avc1.640028,mp4a.40.2\") so players can choose without downloading", line: line)
    }
}
