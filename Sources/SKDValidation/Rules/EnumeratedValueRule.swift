import HLS

/// An enumerated-string must be one of the values its attribute defines (RFC 8216 4.2, and each
/// attribute's definition in 4.3 and rfc8216bis 4.4); a player meets an unknown value as a parse error or
/// ignores the tag. METHOD has a rule of its own (`KEY-method-unknown`).
struct EnumeratedValueRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-attribute-value", severity: .error,
        summary: "An enumerated-string attribute has a value its definition does not allow (TYPE=AUDIO, DEFAULT=YES, …).",
        specSection: "4.2")

    static let tags: Set<TagName>? = Set(allowed.keys)
    static let watchesSegments = false

    private static let yesNo = ["YES", "NO"]
    /// The TYPEs of EXT-X-MEDIA (RFC 8216 4.3.4.1); the variant attributes that name their groups are
    /// spelled the same (AUDIO="…", CLOSED-CAPTIONS="…").
    static let renditionTypes = ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"]
    /// Per tag, the enumerated-string attributes and their values, from their definitions.
    static let allowed: [TagName: [String: [String]]] = [
        .media: [
            "TYPE": renditionTypes, "DEFAULT": yesNo, "AUTOSELECT": yesNo,
            "FORCED": yesNo,
        ],
        .streamInf: ["HDCP-LEVEL": ["TYPE-0", "TYPE-1", "NONE"], "VIDEO-RANGE": ["SDR", "HLG", "PQ"]],
        .iFrameStreamInf: ["HDCP-LEVEL": ["TYPE-0", "TYPE-1", "NONE"], "VIDEO-RANGE": ["SDR", "HLG", "PQ"]],
        .start: ["PRECISE": yesNo],
        .dateRange: ["END-ON-NEXT": ["YES"]],
        .sessionData: ["FORMAT": ["JSON", "RAW"]],
        .part: ["INDEPENDENT": ["YES"], "GAP": ["YES"]],
        .serverControl: ["CAN-SKIP-DATERANGES": ["YES"], "CAN-BLOCK-RELOAD": ["YES"]],
        .preloadHint: ["TYPE": ["PART", "MAP"]],
    ]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let name = tag.name, let table = Self.allowed[name], let list = tag.attributes else { return }
        for attribute in list where !attribute.isQuoted {
            guard let values = table[attribute.name], !values.contains(attribute.text) else { continue }
            // Shown as the tag checker shows values: the line's own text, cut short.
            let shown = attribute.text.prefix(60)
            context.report(
                Self.kind,
                "\(attribute.name)=\(shown) is not a value #\(name.rawValue) defines; use \(values.joined(separator: " or "))",
                line: line, column: attribute.valueColumn)
        }
    }
}
