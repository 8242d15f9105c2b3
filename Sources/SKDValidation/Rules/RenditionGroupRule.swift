import HLS

/// A rendition group is one set of alternatives (RFC 8216 4.3.4.1.1): its members have different NAMEs,
/// and at most one is the DEFAULT, or a player cannot tell them apart or choose. Groups of one TYPE are
/// encodings of the same set ("each Group of the same TYPE MUST have the same set of members, and each
/// corresponding member MUST have identical attributes with the exception of the URI, CHANNELS, BIT-DEPTH,
/// STABLE-RENDITION-ID, INSTREAM-ID, and SAMPLE-RATE attributes", rfc8216bis 4.4.6.1.1): a player switching
/// variants switches group and expects to find the same choices.
/// DEFAULT is not compared: the RFC's own example (section 8.7) picks a different default per group, so
/// it is read as the group's choice rather than a member's attribute.
struct RenditionGroupRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-media-group", severity: .error,
        summary: "Two renditions of one group share a NAME, more than one is DEFAULT=YES, or groups of one TYPE "
            + "differ in their members.",
        specSection: "4.3.4.1.1")

    static let tags: Set<TagName>? = [.media]
    static let watchesSegments = false

    private struct GroupKey: Hashable {
        var type: String
        var id: String
    }

    private var names: [GroupKey: [String: Int]] = [:]
    private var defaults: [GroupKey: Int] = [:]
    /// What corresponding members may differ in: rfc8216bis 4.4.6.1.1 exempts URI, CHANNELS, BIT-DEPTH,
    /// STABLE-RENDITION-ID, INSTREAM-ID and SAMPLE-RATE; GROUP-ID names the group, and DEFAULT is not
    /// compared (above).
    static let exempt: Set<String> = [
        "GROUP-ID", "URI", "CHANNELS", "BIT-DEPTH", "STABLE-RENDITION-ID", "INSTREAM-ID", "SAMPLE-RATE", "DEFAULT",
    ]

    /// Per group: each member's NAME and its attributes but the exempt ones.
    private var members: [GroupKey: [String: [String: String]]] = [:]
    private var groupOrder: [GroupKey] = []
    private var groupPlaces: [GroupKey: RulePlace] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .media, let type = tag.unquoted("TYPE"), let id = tag.quotedString("GROUP-ID") else { return }
        let group = GroupKey(type: type, id: id)
        let number = line.raw.number
        if members[group] == nil {
            groupOrder.append(group)
            groupPlaces[group] = context.place(line)
        }
        if let list = tag.attributes, let name = tag.quotedString("NAME") {
            var compared: [String: String] = [:]
            for attribute in list where !Self.exempt.contains(attribute.name) {
                compared[attribute.name] = String(decoding: attribute.line[attribute.valueRange], as: UTF8.self)
            }
            members[group, default: [:]][name] = compared
        }
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

    mutating func finish(in context: RuleContext) {
        var firstOfType: [String: GroupKey] = [:]
        for group in groupOrder {
            guard let first = firstOfType[group.type] else {
                firstOfType[group.type] = group
                continue
            }
            let (expected, found) = (members[first] ?? [:], members[group] ?? [:])
            guard expected != found, let place = groupPlaces[group] else { continue }
            let missing = Set(expected.keys).subtracting(found.keys).sorted()
            let extra = Set(found.keys).subtracting(expected.keys).sorted()
            let differing = Set(expected.keys).intersection(found.keys).filter { expected[$0] != found[$0] }.sorted()
            var parts: [String] = []
            if !missing.isEmpty { parts.append("lacks " + missing.map { "\"\($0)\"" }.joined(separator: ", ")) }
            if !extra.isEmpty { parts.append("adds " + extra.map { "\"\($0)\"" }.joined(separator: ", ")) }
            if !differing.isEmpty {
                parts.append("differs in the attributes of " + differing.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            context.report(
                Self.kind,
                "\(group.type) group \"\(group.id)\" must have the members of group \"\(first.id)\" with the same attributes "
                    + "but URI, CHANNELS, BIT-DEPTH, STABLE-RENDITION-ID, INSTREAM-ID and SAMPLE-RATE (rfc8216bis 4.4.6.1.1); it \(parts.joined(separator: "; "))",
                at: place)
        }
    }
}
