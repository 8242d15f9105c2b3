import Glibc
import SKDBytes

/// One `NAME=value` pair of an attribute list, with where it sits in its line.
///
/// An attribute holds byte ranges into its line, which it shares with the other attributes of the line:
/// reading a tag allocates once for the line, and a `String` is made only when a name or a value is asked
/// for. The ranges also let an editor replace one value and keep every other byte of the line
/// (see ``TagLineEditor``).
public struct Attribute: Hashable, Sendable {
    /// The whole line the attribute was read from (content, no terminator).
    public let line: [UInt8]
    public let nameRange: Range<Int>
    /// The value within the line, quotes included.
    public let valueRange: Range<Int>
    public let isQuoted: Bool

    public init(line: [UInt8], nameRange: Range<Int>, valueRange: Range<Int>, isQuoted: Bool) {
        self.line = line
        self.nameRange = nameRange
        self.valueRange = valueRange
        self.isQuoted = isQuoted
    }

    public var name: String { String(decoding: line[nameRange], as: UTF8.self) }
    /// The value's text: inside the quotes for a quoted-string, as written otherwise.
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// The value's bytes, inside the quotes for a quoted-string.
    public var textBytes: ArraySlice<UInt8> {
        guard isQuoted else { return line[valueRange] }
        let closed = valueRange.count >= 2 && line[valueRange.upperBound - 1] == UInt8(ascii: "\"")
        return line[(valueRange.lowerBound + 1)..<(closed ? valueRange.upperBound - 1 : valueRange.upperBound)]
    }

    /// Whether the value's text (inside the quotes for a quoted-string) is exactly `text`, compared as
    /// bytes: no `String` is made, and no generic byte-by-byte comparison runs (this is asked of every key
    /// of a key-rotating playlist).
    public func hasText(_ text: String) -> Bool {
        let range = textBytes.indices
        return line.withUnsafeBytes { Bytes.equal(UnsafeRawBufferPointer(rebasing: $0[range]), text) }
    }

    /// The whole `NAME=value` pair within the line.
    public var pairRange: Range<Int> { nameRange.lowerBound..<valueRange.upperBound }
    /// 1-based column of the attribute name in its line.
    public var column: Int { nameRange.lowerBound + 1 }
    /// 1-based column of the value (its opening quote, if quoted).
    public var valueColumn: Int { valueRange.lowerBound + 1 }

    /// Whether the attribute is called `name`, compared byte for byte without making a `String`.
    public func isNamed(_ name: String) -> Bool { withView { $0.isNamed(name) } }

    /// Whether the value holds `{$`, the start of a variable reference (rfc8216bis 4.3).
    public var mayReferenceVariable: Bool { withView(\.mayReferenceVariable) }

    /// Whether the value is written as `type`.
    public func matches(_ type: AttributeType) -> Bool { withView { $0.matches(type) } }

    private func withView<Result>(_ body: (AttributeView) -> Result) -> Result {
        let span = AttributeSpan(nameRange: nameRange, valueRange: valueRange, isQuoted: isQuoted)
        return line.withUnsafeBytes { body(AttributeView(line: $0, span: span)) }
    }
}

/// Where one attribute sits in its line: plain numbers, so a list of them costs no reference counting.
public struct AttributeSpan: Hashable, Sendable {
    public var nameRange: Range<Int>
    public var valueRange: Range<Int>
    public var isQuoted: Bool

    public init(nameRange: Range<Int>, valueRange: Range<Int>, isQuoted: Bool) {
        self.nameRange = nameRange
        self.valueRange = valueRange
        self.isQuoted = isQuoted
    }
}

/// The attributes of a tag in the order they were written. Lookup is by exact (case-sensitive) name,
/// as RFC 8216 section 4.2 defines names as upper case.
public struct AttributeList: Hashable, Sendable {
    /// The line the attributes were read from.
    public private(set) var line: [UInt8]
    public private(set) var spans: [AttributeSpan]

    public init(line: [UInt8] = [], spans: [AttributeSpan] = []) {
        self.line = line
        self.spans = spans
    }

    /// Makes this the list of `line`, whose attributes are at `spans`, in the storage it has when nothing
    /// else holds it: the reader keeps the key in force of each KEYFORMAT this way, without an allocation
    /// (and the atomic reference counting that comes with one) at every key of a key-rotating playlist.
    mutating func replace(line newLine: UnsafeRawBufferPointer, spans newSpans: [AttributeSpan]) {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: newLine)
        spans.removeAll(keepingCapacity: true)
        spans.append(contentsOf: newSpans)
    }

    /// The attributes, made on demand from the spans. (The list is also a collection of them: iterate it
    /// directly to avoid building this array.)
    public var attributes: [Attribute] { Array(self) }

    /// The first attribute named `name`.
    public subscript(name: String) -> Attribute? {
        line.withUnsafeBytes { bytes in
            spans.first { AttributeView(line: bytes, span: $0).isNamed(name) }
        }.map(attribute)
    }

    /// Whether the first attribute named `name` is written as `text` (inside the quotes, for a quoted
    /// value), quoted or not as `quoted` says (`nil`: either). Asked of every key of a key-rotating
    /// playlist, so it reads the bytes in place: no ``Attribute`` is made, no `String`, no reference
    /// counted.
    public func attribute(_ name: String, is text: String, quoted: Bool? = nil) -> Bool {
        withView { $0.attribute(name, is: text, quoted: quoted) }
    }

    /// What `body` says of the list seen through its bytes and spans (``AttributeListView``). (Not generic:
    /// unspecialised across modules, a generic one costs more than the lookups it serves.)
    public func withView(_ body: (AttributeListView) -> Bool) -> Bool {
        line.withUnsafeBytes { line in spans.withUnsafeBufferPointer { body(AttributeListView(line: line, spans: $0)) } }
    }

    public var names: [String] { attributes.map(\.name) }

    /// Drops the attributes named `name`.
    public mutating func removeAll(named name: String) {
        let line = line
        line.withUnsafeBytes { bytes in spans.removeAll { AttributeView(line: bytes, span: $0).isNamed(name) } }
    }

    private func attribute(_ span: AttributeSpan) -> Attribute {
        Attribute(line: line, nameRange: span.nameRange, valueRange: span.valueRange, isQuoted: span.isQuoted)
    }
}

extension AttributeList: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { spans.count }
    public subscript(position: Int) -> Attribute { attribute(spans[position]) }
}

extension Attribute {
    /// The value as `type`, or `nil` if it is not written as that type.
    public func typedValue(as type: AttributeType) -> TypedAttributeValue? {
        guard matches(type) else { return nil }
        let bytes = textBytes
        switch type {
        case .quotedString: return .quotedString(text)
        case .quotedStringOrNone: return isQuoted ? .quotedString(text) : .enumeratedString(text)
        case .enumeratedString: return .enumeratedString(text)
        case .decimalInteger: return NumberParsing.decimalInteger(bytes).map(TypedAttributeValue.decimalInteger)
        case .hexadecimalSequence: return .hexadecimalSequence(String(decoding: bytes.dropFirst(2), as: UTF8.self))
        case .decimalFloatingPoint:
            return NumberParsing.decimalFloat(bytes, signed: false).map(TypedAttributeValue.decimalFloatingPoint)
        case .signedDecimalFloatingPoint:
            return NumberParsing.decimalFloat(bytes, signed: true).map(TypedAttributeValue.signedDecimalFloatingPoint)
        case .decimalResolution:
            let x = bytes.firstIndex(of: UInt8(ascii: "x"))!
            return .decimalResolution(
                width: NumberParsing.decimalInteger(bytes[..<x])!,
                height: NumberParsing.decimalInteger(bytes[(x + 1)...])!)
        }
    }
}
