import HLS

/// KEYFORMATVERSIONS is a quoted-string of positive integers separated by "/" ("1", "1/2", "1/2/5").
struct KeyFormatVersionsSyntaxRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-keyformatversions-syntax", severity: .error,
        summary: "KEYFORMATVERSIONS is not positive integers separated by \"/\" (\"1\", \"1/2\").",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        // (Most keys say "1": told from the bytes, without a String.)
        guard context.key != nil, let attribute = tag.attributes?["KEYFORMATVERSIONS"], attribute.isQuoted,
            !attribute.textBytes.elementsEqual([UInt8(ascii: "1")]), !Self.isValid(attribute.text)
        else { return }
        context.report(
            Self.kind, "KEYFORMATVERSIONS=\"\(attribute.text)\" is not a list like \"1\" or \"1/2\"",
            line: line, column: attribute.valueColumn + 1)
    }

    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { $0 &- 0x30 < 10 } && part.contains { $0 != "0" }
        }
    }
}
