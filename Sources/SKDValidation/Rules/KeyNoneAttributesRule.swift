import HLS

/// "If the encryption method is NONE, other attributes MUST NOT be present": a URI left on a NONE key is
/// usually a sign that a clear period was written by hand from an encrypted one.
struct KeyNoneAttributesRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-none-with-attributes", severity: .error,
        summary: "A key with METHOD=NONE has other attributes (URI, IV, KEYFORMAT, …).",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .key, let list = tag.attributes, let key = context.key, key.isClear,
            let extra = list.first(where: { !$0.isNamed("METHOD") })
        else { return }
        let names = list.filter { !$0.isNamed("METHOD") }.map(\.name).joined(separator: ", ")
        context.report(Self.kind, "METHOD=NONE takes no other attributes; remove \(names)", line: line, column: extra.column)
    }
}
