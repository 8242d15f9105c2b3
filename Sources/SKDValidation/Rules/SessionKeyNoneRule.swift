import HLS

/// A session key announces a key for preloading; "The value of the METHOD attribute MUST NOT be NONE".
struct SessionKeyNoneRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-session-none", severity: .error,
        summary: "An EXT-X-SESSION-KEY has METHOD=NONE.", specSection: "4.3.4.5")

    static let tags: Set<TagName>? = [.sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .sessionKey, let key = context.key, key.isClear,
            let attribute = tag.attributes?["METHOD"]
        else { return }
        context.report(
            Self.kind, "a session key cannot have METHOD=NONE; remove this EXT-X-SESSION-KEY",
            line: line, column: attribute.valueColumn)
    }
}
