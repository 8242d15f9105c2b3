import HLS
import SKDKeys

/// An IV on a FairPlay key is legal, but it overrides the IV the segments were encrypted with by the
/// packager only if both agree; most FairPlay packagers leave it out. Worth a look, not an error.
struct FairPlayIVRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-iv", severity: .info,
        summary: "A FairPlay key carries an IV: it must be the IV the media was encrypted with.",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, key.isFairPlay, let attribute = tag.attributes?["IV"] else { return }
        context.report(
            Self.kind,
            "this FairPlay key carries an IV; check it is the IV the packager encrypted with, or remove it",
            line: line, column: attribute.column)
    }
}
