import HLS

/// rfc8216bis 4.4.2.3: an EXT-X-DEFINE has exactly one of NAME, IMPORT and QUERYPARAM; a NAME needs its
/// VALUE; a variable name is made of `[A-Za-z0-9_-]` only, or `{$name}` references cannot find it; and
/// "EXT-X-DEFINE tags containing the IMPORT attribute MUST NOT occur in Multivariant Playlists" (there is
/// nothing above them to import from).
struct DefineAttributesRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-define-attributes", severity: .error,
        summary: "An EXT-X-DEFINE has not exactly one of NAME, IMPORT, QUERYPARAM, a NAME without VALUE, or a name "
            + "with characters outside A-Z, a-z, 0-9, - and _.",
        specSection: "bis 4.4.2.3")

    static let tags: Set<TagName>? = [.define]
    static let watchesSegments = false

    private var imports: [RulePlace] = []

    mutating func finish(in context: RuleContext) {
        guard context.reader.kind == .master else { return }
        for place in imports {
            context.report(
                Self.kind,
                "IMPORT takes a variable from the multivariant playlist, so it has no place in one; define it with NAME and VALUE",
                at: place)
        }
    }

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .define, let list = tag.attributes else { return }
        let named = ["NAME", "IMPORT", "QUERYPARAM"].compactMap { list[$0] }
        guard named.count == 1, let attribute = named.first else {
            let message =
                named.isEmpty
                ? "EXT-X-DEFINE needs one of NAME, IMPORT or QUERYPARAM"
                : "EXT-X-DEFINE has \(named.map(\.name).joined(separator: " and ")); it takes exactly one of them"
            context.report(Self.kind, message, line: line, column: named.last?.column ?? tag.valueColumn ?? 1)
            return
        }
        // Whether the playlist is a multivariant one is known at its end.
        if attribute.name == "IMPORT" { imports.append(context.place(line, column: attribute.column)) }
        if attribute.name == "NAME", list["VALUE"] == nil {
            context.report(Self.kind, "EXT-X-DEFINE with NAME needs a VALUE", line: line, column: attribute.column)
        }
        let isNameCharacter: (UInt8) -> Bool = { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                || byte == 0x5F
        }
        if attribute.isQuoted, attribute.textBytes.isEmpty || !attribute.textBytes.allSatisfy(isNameCharacter) {
            context.report(
                Self.kind, "\(attribute.name)=\"\(attribute.text.prefix(60))\" is not a variable name (A-Z, a-z, 0-9, - and _)",
                line: line, column: attribute.valueColumn)
        }
    }
}
