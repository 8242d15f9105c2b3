import Glibc

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
    public var textBytes: UnsafeRawBufferPointer {
        let range = span.valueRange
        guard span.isQuoted else { return UnsafeRawBufferPointer(rebasing: line[range]) }
        let closed = range.count >= 2 && line[range.upperBound - 1] == UInt8(ascii: "\"")
        return UnsafeRawBufferPointer(
            rebasing: line[(range.lowerBound + 1)..<(closed ? range.upperBound - 1 : range.upperBound)])
    }

    public var name: String { String(decoding: nameBytes, as: UTF8.self) }
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// Whether the attribute is called `name`.
    @inline(__always)
    public func isNamed(_ name: String) -> Bool { Self.bytes(nameBytes, equal: name) }

    /// Whether `bytes` holds exactly the UTF-8 of `text`. (`Bytes.equal` does the same; called across the
    /// module boundary it is not inlined, and the reader, which asks this of every attribute name, spent 9%
    /// more instructions on a large playlist through it.)
    @inline(__always)
    static func bytes(_ bytes: UnsafeRawBufferPointer, equal text: String) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { wanted in
            bytes.count == 0 || memcmp(wanted.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? text.utf8.elementsEqual(bytes)
    }

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
            return quoted || Self.bytes(bytes, equal: "NONE")
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
