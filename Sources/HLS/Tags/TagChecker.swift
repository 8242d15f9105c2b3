import SKDBytes

/// Checks one tag line against the grammar of its tag (RFC 8216 section 4.3, rfc8216bis), on the line's
/// bytes: nothing is built unless something is wrong, when the message is.
///
/// The reader runs this on every tag of every playlist, which is why it is apart from ``TagParser``
/// (which builds the typed ``Tag`` when someone asks for it, and reports the same problems).
public enum TagChecker {
    /// The problems of `line`, a tag line of tag `name` (its content, starting with `#`).
    ///
    /// `spans` is scratch space, reused across calls to save an allocation per line; on return it holds
    /// the spans of the line's attribute list, if the tag has one.
    public static func check(_ line: UnsafeRawBufferPointer, name: TagName, spans: inout [AttributeSpan]) -> [LineIssue] {
        spans.removeAll(keepingCapacity: true)
        var issues: [LineIssue] = []
        let definition = TagDefinition.of(name)
        let colon = line.firstOffset(of: UInt8(ascii: ":"))
        let start = colon.map { $0 + 1 } ?? line.count
        let value = UnsafeRawBufferPointer(rebasing: line[start...])
        if case .attributeList(let specs) = definition.grammar {
            guard colon != nil else {
                let message = "#\(name.rawValue) needs ':' and an attribute list"
                return [LineIssue(ParseDiagnostics.attributeSyntax, message, column: start + 1)]
            }
            AttributeListParser.scan(line, from: start, into: &spans, issues: &issues)
            // Most lines hold no `{` at all: then no attribute can reference a variable.
            let hasBrace = line.firstOffset(of: UInt8(ascii: "{")) != nil
            checkAttributes(line, spans, specs: specs, tag: name, column: start + 1, hasBrace: hasBrace, issues: &issues)
        } else if let message = problem(with: value, of: name, grammar: definition.grammar) {
            let column = message.column.map { start + $0 + 1 } ?? start + 1
            issues.append(LineIssue(ParseDiagnostics.tagValue, message.text, column: column))
        }
        return issues
    }

    /// What is wrong with the value of a tag without an attribute list, and where (0-based, in the value).
    private static func problem(
        with value: UnsafeRawBufferPointer, of name: TagName, grammar: TagValueGrammar
    ) -> (text: String, column: Int?)? {
        let tag = name.rawValue
        func written() -> String { String(decoding: value.prefix(60), as: UTF8.self) }
        switch grammar {
        case .none:
            return value.isEmpty ? nil : ("#\(tag) takes no value; remove \"\(written())\"", nil)
        case .decimalInteger:
            return NumberParsing.decimalInteger(value) != nil
                ? nil : ("#\(tag) needs a decimal-integer, found \"\(written())\"", nil)
        case .segmentDuration:
            let comma = value.firstOffset(of: UInt8(ascii: ","))
            guard NumberParsing.decimalFloat(value[..<(comma ?? value.count)], signed: false) != nil else {
                return ("#EXTINF needs a duration in seconds, found \"\(written())\"", nil)
            }
            return comma == nil ? ("#EXTINF needs a ',' after the duration", value.count) : nil
        case .byteRange:
            let at = value.firstOffset(of: UInt8(ascii: "@"))
            let lengthOK = NumberParsing.decimalInteger(value[..<(at ?? value.count)]) != nil
            let offsetOK = at.map { NumberParsing.decimalInteger(value[($0 + 1)...]) != nil } ?? true
            return lengthOK && offsetOK ? nil : ("#\(tag) needs <length>[@<offset>] in decimal, found \"\(written())\"", nil)
        case .dateTime:
            return looksLikeDateTime(value)
                ? nil : ("#\(tag) needs an ISO 8601 date-time such as 2026-11-21T10:00:00.000Z", nil)
        case .enumerated(let allowed):
            return allowed.contains(where: { Bytes.equal(value, $0) })
                ? nil : ("#\(tag) must be one of \(allowed.joined(separator: ", ")), found \"\(written())\"", nil)
        case .attributeList:
            return nil
        }
    }

    /// Types, required attributes, and the extra constraints RFC 8216 puts on key tags.
    private static func checkAttributes(
        _ line: UnsafeRawBufferPointer, _ spans: [AttributeSpan], specs: [AttributeSpec], tag: TagName, column: Int,
        hasBrace: Bool, issues: inout [LineIssue]
    ) {
        let isKey = tag == .key || tag == .sessionKey
        // One pass: each attribute's spec found by name (and remembered, for the required ones and the
        // attributes key tags constrain further). The specs are read in place: copying one would retain
        // its name and bytes, atomic operations that cost more than the check itself on a long playlist.
        var seen: UInt64 = 0  // bit i: specs[i] was found (no tag defines more than 64 attributes)
        var method: AttributeView?
        var uri: AttributeView?
        var iv: AttributeView?
        specs.withUnsafeBufferPointer { specs in
            for span in spans {
                let attribute = AttributeView(line: line, span: span)
                guard let index = specs.firstIndex(where: { $0.names(attribute) }) else { continue }
                if seen & (1 << index) == 0 {
                    seen |= 1 << index
                    if isKey {
                        if attribute.isNamed("METHOD") {
                            method = attribute
                        } else if attribute.isNamed("URI") {
                            uri = attribute
                        } else if attribute.isNamed("IV") {
                            iv = attribute
                        }
                    }
                }
                let type = specs[index].type
                // A {$var} reference is resolved by the reader later (rfc8216bis 4.3); its type is checked then.
                if (hasBrace && attribute.mayReferenceVariable) || attribute.matches(type) { continue }
                issues.append(
                    LineIssue(
                        isKey && attribute.isNamed("IV") ? ParseDiagnostics.keyIVFormat : ParseDiagnostics.attributeType,
                        "\(attribute.name) of #\(tag.rawValue) must be a \(type.rawValue), found \(describe(attribute))",
                        column: span.valueRange.lowerBound + 1))
            }
            for index in specs.indices where specs[index].required && seen & (1 << index) == 0 {
                let name = specs[index].name
                let kind = isKey && name == "METHOD" ? ParseDiagnostics.keyMethodMissing : ParseDiagnostics.attributeMissing
                issues.append(LineIssue(kind, "#\(tag.rawValue) needs the attribute \(name)", column: column))
            }
        }
        guard isKey else { return }
        if let method, !Bytes.equal(method.textBytes, "NONE"), uri == nil {
            issues.append(
                LineIssue(
                    ParseDiagnostics.keyURIMissing, "#\(tag.rawValue) with METHOD=\(method.text) needs a URI",
                    column: column))
        }
        if let iv, NumberParsing.isHexadecimalSequence(iv.textBytes), iv.textBytes.count != 34 {
            // Fewer digits still spell a 128-bit number (RFC 8216 asks for the number, not 32 digits);
            // more do not fit in 128 bits.
            let digits = iv.textBytes.count - 2
            issues.append(
                LineIssue(
                    digits < 32 ? ParseDiagnostics.keyIVShort : ParseDiagnostics.keyIVFormat,
                    digits < 32
                        ? "IV has \(digits) hex digits; write all 32 (zero-padded): players differ on how they pad a short IV"
                        : "IV must be 128 bits (0x and 32 hex digits); it has \(digits) digits",
                    column: iv.span.valueRange.lowerBound + 1))
        }
    }

    private static func describe(_ attribute: AttributeView) -> String {
        let text = attribute.text
        let shown = text.count > 60 ? text.prefix(57) + "..." : Substring(text)
        return attribute.span.isQuoted ? "the quoted \"\(shown)\"" : "\"\(shown)\""
    }

    /// `YYYY-MM-DDThh:mm:ss…`: the shape; the calendar is the player's business.
    /// Whether `bytes` are a whole ISO 8601 date/time as HLS writes them: `YYYY-MM-DDThh:mm:ss`, optional
    /// fractional seconds, an optional zone (`Z`, `±hh:mm`, `±hhmm`), nothing more.
    public static func isDateTime(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard looksLikeDateTime(bytes) else { return false }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] &- 0x30 < 10 { index += 1 }
            guard index > start else { return false }
        }
        let zone = Array(bytes[index...])
        if zone.isEmpty || zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] { return true }
        guard zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-") else { return false }
        let digits = zone.dropFirst().filter { $0 != UInt8(ascii: ":") }
        return digits.count == 4 && digits.allSatisfy { $0 &- 0x30 < 10 }
            && (zone.count == 5 || (zone.count == 6 && zone[3] == UInt8(ascii: ":")))
    }

    static func looksLikeDateTime(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 19 else { return false }
        for index in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] where bytes[index] &- 0x30 >= 10 {
            return false
        }
        return bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && (bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"))
            && bytes[13] == UInt8(ascii: ":") && bytes[16] == UInt8(ascii: ":")
    }
}
