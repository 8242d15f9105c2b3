import HLS

/// RFC 8216 4.3.4.4: each EXT-X-SESSION-DATA carries its data one way, "either a VALUE or URI attribute,
/// but not both", and no two tags share a DATA-ID and LANGUAGE (a player could not tell which one holds).
struct SessionDataRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-session-data", severity: .error,
        summary: "An EXT-X-SESSION-DATA has both or neither of VALUE and URI, or repeats another's DATA-ID and LANGUAGE.",
        specSection: "4.3.4.4")

    static let tags: Set<TagName>? = [.sessionData]
    static let watchesSegments = false

    private var seen: [[String]: Int] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .sessionData, let list = tag.attributes else { return }
        switch (list["VALUE"], list["URI"]) {
        case (.some, .some(let uri)):
            context.report(Self.kind, "EXT-X-SESSION-DATA has both VALUE and URI; keep one", line: line, column: uri.column)
        case (nil, nil):
            context.report(Self.kind, "EXT-X-SESSION-DATA needs a VALUE or a URI", line: line, column: tag.valueColumn ?? 1)
        default:
            break
        }
        guard let id = tag.quotedString("DATA-ID") else { return }
        let key = [id, tag.quotedString("LANGUAGE") ?? ""]
        if let first = seen[key] {
            context.report(
                Self.kind, "DATA-ID=\"\(id)\" with this LANGUAGE is already on line \(first); one tag per DATA-ID and LANGUAGE",
                line: line, column: list["DATA-ID"]?.column ?? 1)
        } else {
            seen[key] = line.raw.number
        }
    }
}
