import HLS

/// The MUSTs of EXT-X-DATERANGE beyond its grammar (RFC 8216 4.3.2.7): a START-DATE on the first tag of an
/// ID; END-ON-NEXT=YES needs a CLASS and
/// takes no DURATION or END-DATE; END-DATE is not before START-DATE, and with a DURATION it is START-DATE
/// plus DURATION (to the millisecond playlists write); a client attribute (`X-…`) is a
/// quoted-string, hexadecimal-sequence or signed-decimal-floating-point (rfc8216bis 4.4.5.1; RFC 8216 had it
/// unsigned); and tags that share an ID agree on every
/// attribute they both carry (they describe one date range).
struct DateRangeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-daterange", severity: .error,
        summary: "An EXT-X-DATERANGE breaks a rule of its attributes (START-DATE, END-ON-NEXT, END-DATE, X- values, one "
            + "ID's values).",
        specSection: "rfc8216bis-22 4.4.5.1 (RFC 8216 4.3.2.7)")

    static let tags: Set<TagName>? = [.dateRange]
    static let watchesSegments = false

    /// Per ID: each attribute's value as written, and the line that first gave it.
    private var byID: [String: [String: (value: String, line: Int)]] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .dateRange, let list = tag.attributes else { return }
        func report(_ message: String, _ attribute: Attribute?) {
            context.report(Self.kind, message, line: line, column: attribute?.column ?? tag.valueColumn ?? 1)
        }
        // START-DATE and END-DATE hold an ISO 8601 date/time (rfc8216bis 4.4.5.1): a player that cannot read one
        // cannot place the range. (One without a time zone is read as written: a date/time of local time.)
        for name in ["START-DATE", "END-DATE"] {
            guard let attribute = list[name], attribute.isQuoted else { continue }
            let text = attribute.text
            let readable = text.utf8.withContiguousStorageIfAvailable { TagChecker.isDateTime(UnsafeRawBufferPointer($0)) } ?? false
            if !readable {
                report(
                    "\(name)=\"\(text.prefix(60))\" is not an ISO 8601 date/time: write it as 2026-11-23T10:00:00.000Z (YYYY-MM-DDThh:mm:ss.sss and a zone)",
                    attribute)
            }
        }
        // rfc8216bis 4.4.5.1: "A CUE attribute MUST NOT include both PRE and POST."
        if let cue = list["CUE"], case let words = cue.text.split(separator: ","), words.contains("PRE"), words.contains("POST") {
            report("CUE has both PRE and POST; a date range's cue is one of them (rfc8216bis 4.4.5.1)", cue)
        }
        if let endOnNext = list["END-ON-NEXT"] {
            if list["CLASS"] == nil { report("END-ON-NEXT=YES needs a CLASS attribute", endOnNext) }
            for name in ["DURATION", "END-DATE"] {
                if let attribute = list[name] { report("END-ON-NEXT=YES takes no \(name); remove it", attribute) }
            }
        }
        if let startText = tag.quotedString("START-DATE"), let end = list["END-DATE"], end.isQuoted,
            let start = DateTimeParsing.seconds(startText), let finish = DateTimeParsing.seconds(end.text)
        {
            if finish < start {
                report("END-DATE \(end.text) is before START-DATE \(startText)", end)
            } else if let duration = tag.decimalFloat("DURATION"), abs(start + duration - finish) > 0.0015 {
                report("END-DATE must be START-DATE plus DURATION (\(duration) s); it is \(finish - start) s after it", end)
            }
        }
        for attribute in list where attribute.name.hasPrefix("X-") {
            guard !attribute.isQuoted, !attribute.matches(.hexadecimalSequence), !attribute.matches(.signedDecimalFloatingPoint)
            else { continue }
            report(
                "\(attribute.name) must be a quoted-string, a hexadecimal-sequence or a signed-decimal-floating-point (rfc8216bis 4.4.5.1)",
                attribute)
        }
        guard let id = tag.quotedString("ID") else { return }
        // START-DATE is REQUIRED; the RFC's own example (8.10) leaves it out of a later tag of the same ID,
        // which repeats only what it adds, so only the first tag of an ID must carry it.
        if byID[id] == nil, list["START-DATE"] == nil {
            report("the first EXT-X-DATERANGE with ID=\"\(id)\" needs START-DATE", list["ID"])
        }
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
}
