import HLS
import SKDKeys

/// FairPlay Streaming defines KEYFORMATVERSIONS "1" only; a player that finds no version it supports ignores
/// the key, and the title does not play. KEYFORMATVERSIONS is a list ("1/2/5", rfc8216bis 4.4.4.4): one that
/// includes 1 offers the version FairPlay plays, and is not an error.
struct FairPlayKeyFormatVersionsRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-keyformatversions", severity: .error,
        summary: "A FairPlay key has KEYFORMATVERSIONS that does not list \"1\", the only version FairPlay defines.",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, key.isFairPlay, let versions = key.keyFormatVersions,
            !versions.split(separator: "/").contains(where: { $0 == Substring(FairPlay.keyFormatVersions) }),
            let attribute = tag.attributes?["KEYFORMATVERSIONS"]
        else { return }
        context.report(
            Self.kind,
            "this FairPlay key has KEYFORMATVERSIONS=\"\(versions)\", which does not list version 1, the only one FairPlay "
                + "defines; write \"1\" (or a list that includes it) or leave the attribute out",
            line: line, column: attribute.valueColumn + 1)
    }
}
