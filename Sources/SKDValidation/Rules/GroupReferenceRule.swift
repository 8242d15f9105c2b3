import HLS

/// A variant's AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS attributes name a group of EXT-X-MEDIA renditions
/// of that TYPE "elsewhere in the Master Playlist" (RFC 8216 4.3.4.2): a name with no such group leaves the
/// player without those renditions. CLOSED-CAPTIONS=NONE on one variant must be on all of them.
struct GroupReferenceRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-group-missing", severity: .error,
        summary: "A variant names a rendition group that no EXT-X-MEDIA of that TYPE defines (or CLOSED-CAPTIONS=NONE "
            + "is on some variants only).",
        specSection: "4.3.4.2")

    static let tags: Set<TagName>? = [.media, .streamInf, .iFrameStreamInf]
    static let watchesSegments = false

    private struct Reference {
        var type: String
        var group: String
        var place: RulePlace
    }

    private var references: [Reference] = []
    private var groups: Set<[String]> = []
    /// Group ids of renditions whose TYPE is not one of the four: a reference to one is that TYPE's
    /// mistake (HLS-attribute-value), not reported again as a missing group.
    private var groupsOfUnknownType: Set<String> = []
    private var captionsNone: [RulePlace] = []
    private var captionsOther: RulePlace?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .media:
            guard let type = tag.unquoted("TYPE"), let id = tag.quotedString("GROUP-ID") else { return }
            groups.insert([type, id])
            if !EnumeratedValueRule.renditionTypes.contains(type) { groupsOfUnknownType.insert(id) }
        case .streamInf, .iFrameStreamInf:
            guard let list = tag.attributes else { return }
            for attribute in list {
                // The attribute is named after the TYPE of the group it names.
                let type = attribute.name
                guard EnumeratedValueRule.renditionTypes.contains(type) else { continue }
                let place = context.place(line, column: attribute.column)
                if attribute.isQuoted {
                    references.append(Reference(type: type, group: attribute.text, place: place))
                } else if type == "CLOSED-CAPTIONS", attribute.text == "NONE" {
                    captionsNone.append(place)
                }
            }
            if tag.name == .streamInf, list["CLOSED-CAPTIONS"].map({ $0.isQuoted }) ?? true, captionsOther == nil {
                captionsOther = context.place(line)
            }
        default:
            break
        }
    }

    mutating func finish(in context: RuleContext) {
        for reference in references
        where !groups.contains([reference.type, reference.group]) && !groupsOfUnknownType.contains(reference.group) {
            context.report(
                Self.kind,
                "\(reference.type)=\"\(reference.group)\" names no group: no EXT-X-MEDIA has TYPE=\(reference.type),GROUP-ID=\"\(reference.group)\"",
                at: reference.place)
        }
        // Said at the variant to fix: the one without NONE (the first such), naming one that has it.
        if let first = captionsNone.first, let other = captionsOther {
            context.report(
                Self.kind,
                "this variant does not say CLOSED-CAPTIONS=NONE, and the one of line \(first.line) does: where one EXT-X-STREAM-INF "
                    + "says it, every one must; add CLOSED-CAPTIONS=NONE here (or take it off the others)",
                at: other)
        }
    }
}
