/// A value to write into an attribute list, with the RFC 8216 (section 4.2) type that says what it may hold.
///
/// Writing a value checks it against its type, so a value can never change the structure of the line it
/// is written into: a quoted-string cannot close its quotes or end the line, an enumerated-string cannot
/// start another attribute.
///
/// ```swift
/// let bytes = try AttributeValue.quotedString("skd://title-1").encoded(as: "URI")   // "skd://title-1" in quotes
/// try AttributeValue.enumeratedString("SAMPLE-AES,URI=x").encoded(as: "METHOD")    // throws
/// ```
public enum AttributeValue: Hashable, Sendable {
    /// Written between double quotes; may not hold `"`, CR, LF (RFC 8216 4.2) or any other control character.
    case quotedString(String)
    /// Written as is; may not hold `"`, `,` or whitespace (RFC 8216 4.2), nor control characters or non-ASCII.
    case enumeratedString(String)
    /// `0x` or `0X` and hexadecimal digits, as written.
    case hexadecimalSequence(String)
    case decimalInteger(UInt64)

    /// The type this value is written as.
    public var type: AttributeType {
        switch self {
        case .quotedString: .quotedString
        case .enumeratedString: .enumeratedString
        case .hexadecimalSequence: .hexadecimalSequence
        case .decimalInteger: .decimalInteger
        }
    }

    /// The bytes of the value as it stands after `NAME=` (quotes included), or the reason it cannot be
    /// written there. `name` is only used to say which attribute was refused.
    public func encoded(as name: String) throws(UnwritableAttributeValue) -> [UInt8] {
        switch self {
        case .quotedString(let text):
            if let scalar = Self.firstForbiddenInQuotedString(text) {
                throw UnwritableAttributeValue(attribute: name, type: type, problem: .forbiddenCharacter(scalar))
            }
            var bytes: [UInt8] = [UInt8(ascii: "\"")]
            bytes.reserveCapacity(text.utf8.count + 2)
            bytes += text.utf8
            bytes.append(UInt8(ascii: "\""))
            return bytes
        case .enumeratedString(let text):
            guard !text.isEmpty else { throw UnwritableAttributeValue(attribute: name, type: type, problem: .empty) }
            if let scalar = text.unicodeScalars.first(where: { !Self.isEnumeratedCharacter($0) }) {
                throw UnwritableAttributeValue(attribute: name, type: type, problem: .forbiddenCharacter(scalar))
            }
            return Array(text.utf8)
        case .hexadecimalSequence(let text):
            guard NumberParsing.isHexadecimalSequence(text.utf8) else {
                throw UnwritableAttributeValue(attribute: name, type: type, problem: .notHexadecimal)
            }
            return Array(text.utf8)
        case .decimalInteger(let value):
            return Array(String(value).utf8)
        }
    }

    /// The first character a quoted-string may not hold: `"`, or a control character (C0, DEL, C1), which
    /// takes in CR and LF. Printable ASCII, what key URIs are, is decided on bytes.
    static func firstForbiddenInQuotedString(_ text: String) -> Unicode.Scalar? {
        // Over the contiguous bytes when the string has them (a native or literal string always does): the
        // generic walk of the UTF-8 view cost several times as much, at every key a migration writes.
        let printableASCII =
            text.utf8.withContiguousStorageIfAvailable(isPlainQuotedString) ?? text.utf8.allSatisfy(isPlainQuotedStringByte)
        if printableASCII { return nil }
        return text.unicodeScalars.first { $0 == "\"" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Whether every byte of `bytes` is ``isPlainQuotedStringByte(_:)``: tested eight at a time, as a
    /// rewritten key's URI is at every key a migration writes (a byte at a time, a third of the splice).
    static func isPlainQuotedString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // The reader's test (non-ASCII, a control character, DEL), and a quote.
                if EncodingCheck.needsAttention(word) || EncodingCheck.has(UInt8(ascii: "\""), in: word) { return false }
                index += 8
            }
        }
        while index < bytes.count {
            guard isPlainQuotedStringByte(bytes[index]) else { return false }
            index += 1
        }
        return true
    }

    /// Whether a quoted-string may hold `byte` whatever stands around it: printable ASCII but `"`. (Other
    /// bytes may be allowed too, as parts of UTF-8 characters, but only a look at the characters can say.)
    @inline(__always)
    static func isPlainQuotedStringByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"")
    }

    private static func isEnumeratedCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != ","
    }
}

/// A value that cannot be written into an attribute list without changing the line's structure.
public struct UnwritableAttributeValue: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// A character the type may not hold.
        case forbiddenCharacter(Unicode.Scalar)
        case empty
        /// Not `0x` followed by hexadecimal digits.
        case notHexadecimal
        /// An attribute or tag name that is not `[A-Z0-9-]+` (RFC 8216 4.2).
        case invalidName
    }

    /// The attribute (or tag) that was refused.
    public var attribute: String
    public var type: AttributeType
    public var problem: Problem

    public init(attribute: String, type: AttributeType, problem: Problem) {
        self.attribute = attribute
        self.type = type
        self.problem = problem
    }

    private var article: String { type.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a" }

    public var description: String {
        switch problem {
        case .forbiddenCharacter(let scalar):
            return "cannot write \(attribute): \(article) \(type.rawValue) cannot hold \(Diagnostic.codePoint(scalar.value))"
        case .empty: return "cannot write \(attribute): \(article) \(type.rawValue) cannot be empty"
        case .notHexadecimal: return "cannot write \(attribute): a hexadecimal-sequence is 0x followed by hexadecimal digits"
        case .invalidName: return "cannot write \(attribute): a name is upper-case letters, digits and '-'"
        }
    }
}
