/// Parses one tag line (`#EXT…`) into a typed ``Tag``, with the problems ``TagChecker`` finds in it.
///
/// Only tag lines that someone asks about are parsed: the playlist reader checks every tag on its bytes
/// and builds a ``Tag`` only when one is asked for.
public enum TagParser {
    public struct Result: Sendable {
        public var tag: Tag
        public var issues: [LineIssue]
    }

    /// Parses `line`, which starts with `#EXT`. Anything else (a caller's mistake) is an unknown tag with
    /// the whole line as its text, never a crash.
    public static func parse(_ line: UnsafeRawBufferPointer) -> Result {
        guard line.first == UInt8(ascii: "#") else {
            return Result(tag: Tag(name: nil, spelledName: "", value: .text(text(line, from: 0)), valueColumn: nil), issues: [])
        }
        let colon = line.firstOffset(of: UInt8(ascii: ":"))
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[1..<(colon ?? line.count)])
        let name = TagName(bytes: nameBytes)
        let spelledName = name?.rawValue ?? String(decoding: nameBytes, as: UTF8.self)
        let valueStart = colon.map { $0 + 1 }
        let valueColumn = valueStart.map { $0 + 1 }
        guard let name else {
            var value = TagValue.none
            if let valueStart { value = .text(text(line, from: valueStart)) }
            return Result(tag: Tag(name: nil, spelledName: spelledName, value: value, valueColumn: valueColumn), issues: [])
        }
        var spans: [AttributeSpan] = []
        let issues = TagChecker.check(line, name: name, spans: &spans)
        let value = readValue(line, from: valueStart, grammar: TagDefinition.of(name).grammar, spans: spans)
        return Result(tag: Tag(name: name, spelledName: spelledName, value: value, valueColumn: valueColumn), issues: issues)
    }

    /// The tag of a line that has been checked already (by the playlist reader), without checking it again:
    /// `spans` are its attribute list's, where the reader tokenised it; a list not tokenised yet is, here.
    package static func tag(ofChecked line: UnsafeRawBufferPointer, spans known: [AttributeSpan]?) -> Tag {
        let colon = line.firstOffset(of: UInt8(ascii: ":"))
        guard line.first == UInt8(ascii: "#"), let name = TagName(bytes: UnsafeRawBufferPointer(rebasing: line[1..<(colon ?? line.count)]))
        else { return parse(line).tag }
        let valueStart = colon.map { $0 + 1 }
        let grammar = TagDefinition.of(name).grammar
        var spans = known ?? []
        if known == nil, case .attributeList = grammar { _ = TagChecker.check(line, name: name, spans: &spans) }
        let value = readValue(line, from: valueStart, grammar: grammar, spans: spans)
        return Tag(name: name, spelledName: name.rawValue, value: value, valueColumn: valueStart.map { $0 + 1 })
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

    /// The value of a well-formed tag; a malformed one reads as its text (the checker has said why).
    /// `#EXTINF:` as a little-endian word: how a line is told to be one, a word compared. (Computed and
    /// inlinable: a constant where it is read, at every line of a run, rather than a global's accessor.)
    @inlinable
    package static var extInfPrefix: UInt64 { UInt64(littleEndian: 0x3A46_4E49_5458_4523) }

    /// The duration an `EXTINF`'s value (what follows `#EXTINF:`) gives: the number before its first comma;
    /// `nil` where that is no number. (Inlinable: validate reads each segment's by it.)
    @inlinable
    package static func segmentDuration(_ value: UnsafeRawBufferPointer) -> Double? {
        let comma = value.firstIndex(of: UInt8(ascii: ",")) ?? value.count
        return NumberParsing.decimalFloat(value[..<comma], signed: false)
    }

    private static func readValue(
        _ line: UnsafeRawBufferPointer, from start: Int?, grammar: TagValueGrammar, spans: [AttributeSpan]
    ) -> TagValue {
        let bytes = UnsafeRawBufferPointer(rebasing: line[(start ?? line.count)...])
        // (Made only where the value is not what the grammar says: a String for every EXTINF would be most of its cost.)
        var asText: TagValue { start == nil ? .none : .text(String(decoding: bytes, as: UTF8.self)) }
        switch grammar {
        case .none:
            return bytes.isEmpty ? .none : asText
        case .decimalInteger:
            return NumberParsing.decimalInteger(bytes).map(TagValue.decimalInteger) ?? asText
        case .segmentDuration:
            guard let duration = segmentDuration(bytes) else { return asText }
            return .segmentDuration(
                duration: duration, title: bytes.firstOffset(of: UInt8(ascii: ",")).map { text(bytes, from: $0 + 1) } ?? "")
        case .byteRange:
            let at = bytes.firstOffset(of: UInt8(ascii: "@"))
            guard let length = NumberParsing.decimalInteger(bytes[..<(at ?? bytes.count)]) else { return asText }
            guard let at else { return .byteRange(length: length, offset: nil) }
            guard let offset = NumberParsing.decimalInteger(bytes[(at + 1)...]) else { return asText }
            return .byteRange(length: length, offset: offset)
        case .dateTime:
            return TagChecker.looksLikeDateTime(bytes) ? .dateTime(String(decoding: bytes, as: UTF8.self)) : asText
        case .enumerated(let allowed):
            let value = String(decoding: bytes, as: UTF8.self)
            return allowed.contains(value) ? .enumerated(value) : asText
        case .attributeList:
            return .attributes(AttributeList(line: Array(line), spans: spans))
        }
    }

    private static func text(_ bytes: UnsafeRawBufferPointer, from start: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
    }
}
