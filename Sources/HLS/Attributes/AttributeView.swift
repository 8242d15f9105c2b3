import Glibc
import SKDBytes

/// An attribute seen through the bytes of its line: the checks the reader makes on every attribute of
/// every tag run on this view, without copying the line or making a `String`.
public struct AttributeView {
    public let line: UnsafeRawBufferPointer
    public let span: AttributeSpan

    public init(line: UnsafeRawBufferPointer, span: AttributeSpan) {
        self.line = line
        self.span = span
    }

    public var nameBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: line[span.nameRange]) }

    /// The value's bytes, inside the quotes for a quoted-string.
    public var textBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: line[textRange]) }

    /// Where ``textBytes`` stand in the line.
    public var textRange: Range<Int> {
        let range = span.valueRange
        guard span.isQuoted else { return range }
        let closed = range.count >= 2 && line[range.upperBound - 1] == UInt8(ascii: "\"")
        return (range.lowerBound + 1)..<(closed ? range.upperBound - 1 : range.upperBound)
    }

    public var name: String { String(decoding: nameBytes, as: UTF8.self) }
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// Whether the attribute is called `name`.
    @inline(__always)
    public func isNamed(_ name: String) -> Bool { Bytes.equal(nameBytes, name) }

    /// Whether the value holds `{$`, the start of a variable reference (rfc8216bis 4.3).
    public var mayReferenceVariable: Bool {
        let bytes = textBytes
        var position = 0
        while position < bytes.count, let brace = memchr(bytes.baseAddress! + position, 0x7B, bytes.count - position) {
            position = bytes.baseAddress!.distance(to: UnsafeRawPointer(brace)) + 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "$") { return true }
        }
        return false
    }

    /// Whether the value is written as `type`.
    public func matches(_ type: AttributeType) -> Bool {
        let bytes = textBytes
        let quoted = span.isQuoted
        switch type {
        case .quotedString:
            return quoted
        case .quotedStringOrNone:
            return quoted || Bytes.equal(bytes, "NONE")
        case .enumeratedString:
            return !quoted && !bytes.isEmpty
        case .decimalInteger:
            return !quoted && NumberParsing.decimalInteger(bytes) != nil
        case .hexadecimalSequence:
            return !quoted && NumberParsing.isHexadecimalSequence(bytes)
        case .decimalFloatingPoint:
            return !quoted && NumberParsing.decimalFloat(bytes, signed: false) != nil
        case .signedDecimalFloatingPoint:
            return !quoted && NumberParsing.decimalFloat(bytes, signed: true) != nil
        case .decimalResolution:
            guard !quoted, let x = bytes.firstIndex(of: UInt8(ascii: "x")) else { return false }
            return NumberParsing.decimalInteger(bytes[..<x]) != nil
                && NumberParsing.decimalInteger(bytes[(x + 1)...]) != nil
        }
    }
}
