import HLS

/// The MUSTs of EXT-X-DATERANGE beyond its grammar (RFC 8216 4.3.2.7): END-ON-NEXT=YES needs a CLASS and
/// takes no DURATION or END-DATE; END-DATE is not before START-DATE; a client attribute (`X-…`) is a
/// quoted-string, hexadecimal-sequence or decimal-floating-point; and tags that share an ID agree on every
/// attribute they both carry (they describe one date range).
struct DateRangeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-daterange", severity: .error,
        summary: "An EXT-X-DATERANGE breaks a rule of its attributes (END-ON-NEXT, END-DATE, X- values, one ID's values).",
        specSection: "4.3.2.7")

    /// Per ID: each attribute's value as written, and the line that first gave it.
    private var byID: [String: [String: (value: String, line: Int)]] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .dateRange, let list = tag.attributes else { return }
        func report(_ message: String, _ attribute: Attribute?) {
            context.report(Self.kind, message, line: line, column: attribute?.column ?? tag.valueColumn ?? 1)
        }
        if let endOnNext = list["END-ON-NEXT"] {
            if list["CLASS"] == nil { report("END-ON-NEXT=YES needs a CLASS attribute", endOnNext) }
            for name in ["DURATION", "END-DATE"] {
                if let attribute = list[name] { report("END-ON-NEXT=YES takes no \(name); remove it", attribute) }
            }
        }
        if let start = tag.quotedString("START-DATE"), let end = list["END-DATE"], end.isQuoted,
            let order = Self.compare(start, end.text), order > 0
        {
            report("END-DATE \(end.text) is before START-DATE \(start)", end)
        }
        for attribute in list where attribute.name.hasPrefix("X-") {
            guard !attribute.isQuoted, !attribute.matches(.hexadecimalSequence), !attribute.matches(.decimalFloatingPoint)
            else { continue }
            report("\(attribute.name) must be a quoted-string, a hexadecimal-sequence or a decimal-floating-point", attribute)
        }
        guard let id = tag.quotedString("ID") else { return }
        var known = byID[id, default: [:]]
        for attribute in list where attribute.name != "ID" {
            let written = String(decoding: attribute.line[attribute.valueRange], as: UTF8.self)
            if let first = known[attribute.name] {
                if first.value != written {
                    report(
                        "ID=\"\(id)\" has \(attribute.name)=\(first.value.prefix(60)) on line \(first.line); a date range's tags agree",
                        attribute)
                }
            } else {
                known[attribute.name] = (written, line.raw.number)
            }
        }
        byID[id] = known
    }

    /// Orders two dates written alike (`2026-11-23T10:00:00.000Z` and the same shape): `nil` when their
    /// shapes differ (time zones, precision), which this does not convert.
    static func compare(_ first: String, _ second: String) -> Int? {
        func shape(_ text: String) -> [Bool] { text.utf8.map { $0 &- 0x30 < 10 } }
        guard first.utf8.count == second.utf8.count, shape(first) == shape(second),
            (first.hasSuffix("Z") && second.hasSuffix("Z")) || first.suffix(6) == second.suffix(6)
        else { return nil }
        return first == second ? 0 : (first < second ? -1 : 1)
    }
}
