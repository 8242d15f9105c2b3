/// Parses one tag line (`#EXT…`) by the grammar of its tag and reports what breaks the grammar.
///
/// Only tag lines that someone asks about are parsed: the playlist reader classifies every line by its
/// first bytes and hands the line here when the tag's value is needed.
public enum TagParser {
    public struct Result: Sendable {
        public var tag: Tag
        public var issues: [LineIssue]
    }

    /// Parses `line`, which starts with `#EXT`.
    public static func parse(_ line: UnsafeRawBufferPointer) -> Result {
        let colon = line.firstOffset(of: UInt8(ascii: ":"))
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[1..<(colon ?? line.count)])
        let name = TagName(bytes: nameBytes)
        let spelledName = name?.rawValue ?? String(decoding: nameBytes, as: UTF8.self)
        let valueStart = colon.map { $0 + 1 }
        var issues: [LineIssue] = []
        guard let name else {
            var value = TagValue.none
            if let valueStart { value = .text(text(line, from: valueStart)) }
            let tag = Tag(name: nil, spelledName: spelledName, value: value, valueColumn: valueStart.map { $0 + 1 })
            return Result(tag: tag, issues: [])
        }
        let definition = TagDefinition.of(name)
        let value = readValue(line, from: valueStart, definition: definition, issues: &issues)
        var tag = Tag(name: name, spelledName: spelledName, value: value, valueColumn: valueStart.map { $0 + 1 })
        if case .attributes = value {
            checkAttributes(of: &tag, definition: definition, line: line, issues: &issues)
        }
        return Result(tag: tag, issues: issues)
    }

    /// Checks an `#EXTINF:<duration>,[<title>]` line without building a ``Tag``: the reader runs this on
    /// every segment, so it only scans bytes.
    public static func checkSegmentDuration(_ line: UnsafeRawBufferPointer) -> LineIssue? {
        let prefix = 8  // "#EXTINF:"
        let count = line.count
        guard count > prefix, let base = line.baseAddress,
            base.load(fromByteOffset: prefix - 1, as: UInt8.self) == UInt8(ascii: ":")
        else { return parse(line).issues.first }
        var index = prefix
        var digits = 0
        var points = 0
        var byte: UInt8 = 0
        while index < count {
            byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte &- 0x30 < 10 {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                points += 1
            } else {
                break
            }
            index += 1
        }
        if digits > 0, points <= 1, index < count, byte == UInt8(ascii: ",") { return nil }
        // Something is off: the full parser says what, with the same messages as everywhere else.
        return parse(line).issues.first
    }

    private static func readValue(
        _ line: UnsafeRawBufferPointer, from start: Int?, definition: TagDefinition, issues: inout [LineIssue]
    ) -> TagValue {
        let name = definition.name.rawValue
        let column = (start ?? line.count) + 1
        let bytes = UnsafeRawBufferPointer(rebasing: line[(start ?? line.count)...])
        func invalid(_ message: String) -> TagValue {
            issues.append(LineIssue(ParseDiagnostics.tagValue, message, column: column))
            return start == nil ? .none : .text(String(decoding: bytes, as: UTF8.self))
        }
        let written = String(decoding: bytes.prefix(60), as: UTF8.self)

        switch definition.grammar {
        case .none:
            guard bytes.isEmpty else { return invalid("#\(name) takes no value; remove \"\(written)\"") }
            return .none
        case .decimalInteger:
            guard let value = NumberParsing.decimalInteger(bytes) else {
                return invalid("#\(name) needs a decimal-integer, found \"\(written)\"")
            }
            return .decimalInteger(value)
        case .segmentDuration:
            let comma = bytes.firstIndex(of: UInt8(ascii: ","))
            let durationBytes = UnsafeRawBufferPointer(rebasing: bytes[..<(comma ?? bytes.count)])
            guard let duration = NumberParsing.decimalFloat(durationBytes, signed: false) else {
                return invalid("#EXTINF needs a duration in seconds, found \"\(written)\"")
            }
            guard let comma else {
                issues.append(
                    LineIssue(
                        ParseDiagnostics.tagValue, "#EXTINF needs a ',' after the duration",
                        column: column + bytes.count))
                return .segmentDuration(duration: duration, title: "")
            }
            return .segmentDuration(duration: duration, title: text(bytes, from: comma + 1))
        case .byteRange:
            let at = bytes.firstIndex(of: UInt8(ascii: "@"))
            let length = NumberParsing.decimalInteger(bytes[..<(at ?? bytes.count)])
            let offset = at.map { NumberParsing.decimalInteger(bytes[($0 + 1)...]) }
            guard let length, offset != .some(nil) else {
                return invalid("#\(name) needs <length>[@<offset>] in decimal, found \"\(written)\"")
            }
            return .byteRange(length: length, offset: offset ?? nil)
        case .dateTime:
            guard looksLikeDateTime(bytes) else {
                return invalid("#\(name) needs an ISO 8601 date-time such as 2026-11-21T10:00:00.000Z")
            }
            return .dateTime(String(decoding: bytes, as: UTF8.self))
        case .enumerated(let allowed):
            let value = String(decoding: bytes, as: UTF8.self)
            guard allowed.contains(value) else {
                return invalid("#\(name) must be one of \(allowed.joined(separator: ", ")), found \"\(written)\"")
            }
            return .enumerated(value)
        case .attributeList:
            guard let start else {
                issues.append(LineIssue(ParseDiagnostics.attributeSyntax, "#\(name) needs ':' and an attribute list", column: column))
                return .attributes(AttributeList())
            }
            let result = AttributeListParser.parse(line, from: start)
            issues += result.issues
            return .attributes(result.list)
        }
    }

    /// Types, required attributes, and the extra constraints RFC 8216 puts on key tags.
    private static func checkAttributes(
        of tag: inout Tag, definition: TagDefinition, line: UnsafeRawBufferPointer, issues: inout [LineIssue]
    ) {
        guard let list = tag.attributes, case .attributeList(let specs) = definition.grammar else { return }
        let name = definition.name.rawValue
        for attribute in list.attributes {
            guard let spec = definition.spec(of: attribute.name) else { continue }
            // A {$var} reference is resolved by the reader later (rfc8216bis 4.3); its type is checked then.
            if VariableScope.mayReference(attribute.text) { continue }
            if attribute.typedValue(as: spec.type) == nil {
                let isIV = spec.name == "IV" && (definition.name == .key || definition.name == .sessionKey)
                issues.append(
                    LineIssue(
                        isIV ? ParseDiagnostics.keyIVFormat : ParseDiagnostics.attributeType,
                        "\(attribute.name) of #\(name) must be a \(spec.type.rawValue), found \(describe(attribute))",
                        column: attribute.valueColumn))
            }
        }
        let isKey = definition.name == .key || definition.name == .sessionKey
        for spec in specs where spec.required && list[spec.name] == nil {
            let kind = isKey && spec.name == "METHOD" ? ParseDiagnostics.keyMethodMissing : ParseDiagnostics.attributeMissing
            issues.append(LineIssue(kind, "#\(name) needs the attribute \(spec.name)", column: tag.valueColumn ?? 1))
        }
        if isKey { checkKey(list, tagName: name, column: tag.valueColumn ?? 1, issues: &issues) }
    }

    private static func checkKey(_ list: AttributeList, tagName: String, column: Int, issues: inout [LineIssue]) {
        if let method = list["METHOD"], method.text != "NONE", list["URI"] == nil {
            issues.append(
                LineIssue(
                    ParseDiagnostics.keyURIMissing, "#\(tagName) with METHOD=\(method.text) needs a URI",
                    column: column))
        }
        if let iv = list["IV"], let digits = NumberParsing.hexadecimalDigits(iv.text), digits.utf8.count != 32 {
            issues.append(
                LineIssue(
                    ParseDiagnostics.keyIVFormat,
                    "IV must be 128 bits (0x and 32 hex digits); it has \(digits.utf8.count) digits",
                    column: iv.valueColumn))
        }
    }

    private static func describe(_ attribute: Attribute) -> String {
        let shown = attribute.text.count > 60 ? attribute.text.prefix(57) + "..." : Substring(attribute.text)
        return attribute.isQuoted ? "the quoted \"\(shown)\"" : "\"\(shown)\""
    }

    private static func text(_ bytes: UnsafeRawBufferPointer, from start: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
    }

    /// `YYYY-MM-DDThh:mm:ss…`: the shape; the calendar is the player's business.
    private static func looksLikeDateTime(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 19 else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        return digits.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
            && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && (bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"))
            && bytes[13] == UInt8(ascii: ":") && bytes[16] == UInt8(ascii: ":")
    }
}
