/// The value types of RFC 8216 section 4.2, plus the one union the protocol uses.
public enum AttributeType: String, Sendable, Codable {
    case decimalInteger = "decimal-integer"
    case hexadecimalSequence = "hexadecimal-sequence"
    case decimalFloatingPoint = "decimal-floating-point"
    case signedDecimalFloatingPoint = "signed-decimal-floating-point"
    case quotedString = "quoted-string"
    case enumeratedString = "enumerated-string"
    case decimalResolution = "decimal-resolution"
    /// `CLOSED-CAPTIONS` of `EXT-X-STREAM-INF`: a quoted-string, or the enumerated-string `NONE`.
    case quotedStringOrNone = "quoted-string-or-NONE"
}

/// An attribute value read as the type its tag defines.
public enum TypedAttributeValue: Hashable, Sendable {
    case decimalInteger(UInt64)
    /// The digits after `0x`, as written.
    case hexadecimalSequence(String)
    case decimalFloatingPoint(Double)
    case signedDecimalFloatingPoint(Double)
    case quotedString(String)
    case enumeratedString(String)
    case decimalResolution(width: UInt64, height: UInt64)
    /// An attribute the tag does not define (client `X-` attributes, future ones): its text, and whether
    /// it was quoted.
    case unspecified(String, quoted: Bool)
}
