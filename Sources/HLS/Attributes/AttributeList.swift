/// One `NAME=value` pair of an attribute list, with where it sits in its line.
///
/// Ranges are byte offsets into the line's content, so an editor can replace one value and keep every
/// other byte of the line (see ``TagLineEditor``).
public struct Attribute: Hashable, Sendable {
    public var name: String
    /// The value's text: inside the quotes for a quoted-string, as written otherwise.
    public var text: String
    public var isQuoted: Bool
    /// The whole `NAME=value` pair within the line.
    public var pairRange: Range<Int>
    /// The value within the line, quotes included.
    public var valueRange: Range<Int>

    public init(name: String, text: String, isQuoted: Bool, pairRange: Range<Int>, valueRange: Range<Int>) {
        self.name = name
        self.text = text
        self.isQuoted = isQuoted
        self.pairRange = pairRange
        self.valueRange = valueRange
    }

    /// 1-based column of the attribute name in its line.
    public var column: Int { pairRange.lowerBound + 1 }
    /// 1-based column of the value (its opening quote, if quoted).
    public var valueColumn: Int { valueRange.lowerBound + 1 }
}

/// The attributes of a tag in the order they were written. Lookup is by exact (case-sensitive) name,
/// as RFC 8216 section 4.2 defines names as upper case.
public struct AttributeList: Hashable, Sendable {
    public var attributes: [Attribute]

    public init(_ attributes: [Attribute] = []) { self.attributes = attributes }

    /// The first attribute named `name`.
    public subscript(name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    public var names: [String] { attributes.map(\.name) }
}

extension Attribute {
    /// The value as `type`, or `nil` if it is not written as that type.
    public func typedValue(as type: AttributeType) -> TypedAttributeValue? {
        switch type {
        case .quotedString:
            return isQuoted ? .quotedString(text) : nil
        case .quotedStringOrNone:
            if isQuoted { return .quotedString(text) }
            return text == "NONE" ? .enumeratedString(text) : nil
        case .enumeratedString:
            guard !isQuoted, !text.isEmpty else { return nil }
            return .enumeratedString(text)
        case .decimalInteger:
            guard !isQuoted, let value = NumberParsing.decimalInteger(text.utf8) else { return nil }
            return .decimalInteger(value)
        case .hexadecimalSequence:
            guard !isQuoted, let digits = NumberParsing.hexadecimalDigits(text) else { return nil }
            return .hexadecimalSequence(digits)
        case .decimalFloatingPoint:
            guard !isQuoted, let value = NumberParsing.decimalFloat(text.utf8, signed: false) else { return nil }
            return .decimalFloatingPoint(value)
        case .signedDecimalFloatingPoint:
            guard !isQuoted, let value = NumberParsing.decimalFloat(text.utf8, signed: true) else { return nil }
            return .signedDecimalFloatingPoint(value)
        case .decimalResolution:
            guard !isQuoted else { return nil }
            let parts = text.utf8.split(separator: UInt8(ascii: "x"), omittingEmptySubsequences: false)
            guard parts.count == 2, let width = NumberParsing.decimalInteger(parts[0]),
                let height = NumberParsing.decimalInteger(parts[1])
            else { return nil }
            return .decimalResolution(width: width, height: height)
        }
    }
}
