import HLS

/// A key URI still holding a template placeholder (`{content_id}`, `<content_id>`, `${id}`) was written by a
/// packaging step that never filled it in. (`{$name}` is EXT-X-DEFINE substitution, not a leftover.)
struct LeftoverPlaceholderRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-placeholder-left", severity: .error,
        summary: "A key URI holds an unfilled template placeholder: {name}, <name> or ${name}.",
        specSection: "skdpack: an unfilled template placeholder, not an RFC rule")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard context.key != nil, let attribute = tag.attributes?["URI"], attribute.isQuoted,
            attribute.textBytes.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "<") })
        else { return }
        let text = Array(attribute.text.utf8)
        for (index, byte) in text.enumerated() {
            let opens = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "<")
            guard opens else { continue }
            if byte == UInt8(ascii: "{"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "$") { continue }
            let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ">")
            guard let end = text[(index + 1)...].firstIndex(of: close), end > index + 1 else { continue }
            let placeholder = String(decoding: text[index...end], as: UTF8.self)
            let dollar = index > 0 && text[index - 1] == UInt8(ascii: "$")
            context.report(
                Self.kind, "the URI still holds the placeholder \(dollar ? "$" : "")\(placeholder); render the template (skdpack apply)",
                line: line, column: attribute.valueColumn + 1 + index - (dollar ? 1 : 0))
            return
        }
    }
}
