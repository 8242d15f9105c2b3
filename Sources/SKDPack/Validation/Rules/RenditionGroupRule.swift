import HLS

/// A rendition group is one set of alternatives (RFC 8216 4.3.4.1.1): its members have different NAMEs,
/// and at most one is the DEFAULT, or a player cannot tell them apart or choose.
struct RenditionGroupRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-media-group", severity: .error,
        summary: "Two renditions of one group share a NAME, or more than one is DEFAULT=YES.",
        specSection: "4.3.4.1.1")

    private struct GroupKey: Hashable {
        var type: String
        var id: String
    }

    private var names: [GroupKey: [String: Int]] = [:]
    private var defaults: [GroupKey: Int] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .media, let type = tag.unquoted("TYPE"), let id = tag.quotedString("GROUP-ID") else { return }
        let group = GroupKey(type: type, id: id)
        let number = line.raw.number
        if let name = tag.attributes?["NAME"], name.isQuoted {
            if let first = names[group, default: [:]][name.text] {
                context.report(
                    Self.kind, "NAME=\"\(name.text)\" is taken by line \(first) in \(type) group \"\(id)\"; names in a group differ",
                    line: line, column: name.column)
            } else {
                names[group, default: [:]][name.text] = number
            }
        }
        if let isDefault = tag.attributes?["DEFAULT"], isDefault.text == "YES" {
            if let first = defaults[group] {
                context.report(
                    Self.kind, "\(type) group \"\(id)\" already has its DEFAULT=YES rendition on line \(first); a group has at most one",
                    line: line, column: isDefault.column)
            } else {
                defaults[group] = number
            }
        }
    }
}
