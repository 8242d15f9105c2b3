import HLS

/// RFC 8216 4.3.4.1.1: AUTOSELECT=YES members of a group "SHOULD have a combination of LANGUAGE,
/// ASSOC-LANGUAGE, FORCED, and CHARACTERISTICS attributes that is distinct": two alike leave the player's
/// automatic choice to chance.
struct AutoselectDistinctRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-autoselect-alike", severity: .warning,
        summary: "Two AUTOSELECT=YES renditions of one group have the same LANGUAGE, ASSOC-LANGUAGE, FORCED and "
            + "CHARACTERISTICS.",
        specSection: "4.3.4.1.1")

    static let tags: Set<TagName>? = [.media]
    static let watchesSegments = false

    private var seen: [[String]: Int] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .media, tag.unquoted("AUTOSELECT") == "YES", let type = tag.unquoted("TYPE"),
            let group = tag.quotedString("GROUP-ID")
        else { return }
        let key =
            [type, group]
            + [
                tag.quotedString("LANGUAGE"), tag.quotedString("ASSOC-LANGUAGE"), tag.unquoted("FORCED"),
                tag.quotedString("CHARACTERISTICS"),
            ]
            .map { $0 ?? "" }
        if let first = seen[key] {
            context.report(
                Self.kind,
                "this AUTOSELECT=YES rendition is like line \(first)'s to a player (LANGUAGE, ASSOC-LANGUAGE, FORCED, CHARACTERISTICS); tell them apart",
                line: line)
        } else {
            seen[key] = line.raw.number
        }
    }
}
