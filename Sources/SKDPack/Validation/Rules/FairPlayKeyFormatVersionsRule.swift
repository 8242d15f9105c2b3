import HLS

/// FairPlay Streaming defines KEYFORMATVERSIONS "1" only; a player that finds no version it supports ignores
/// the key, and the title does not play.
struct FairPlayKeyFormatVersionsRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-keyformatversions", severity: .error,
        summary: "A FairPlay key has KEYFORMATVERSIONS other than \"1\", the only version FairPlay defines.",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = KeyTag(tag), FairPlay.isFairPlayKey(key), let versions = key.keyFormatVersions,
            versions != FairPlay.keyFormatVersions, let attribute = tag.attributes?["KEYFORMATVERSIONS"]
        else { return }
        context.report(
            Self.kind, "this FairPlay key has KEYFORMATVERSIONS=\"\(versions)\"; write \"1\" or leave the attribute out",
            line: line, column: attribute.valueColumn + 1)
    }
}
