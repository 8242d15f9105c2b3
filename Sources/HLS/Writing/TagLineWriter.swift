/// Writes a new tag line: `#NAME:ATTR=value,…` or `#NAME:integer`. With ``TagLineEditor``, the one way
/// skdpack writes a tag: every name and value is checked against its type, so the result is always one
/// line holding one tag, whatever the values hold.
///
/// ```swift
/// var key = TagLineWriter(tag: "EXT-X-KEY")
/// try key.append("METHOD", .enumeratedString("SAMPLE-AES"))
/// try key.append("URI", .quotedString("skd://title-1"))
/// key.bytes   // #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1"
/// ```
public struct TagLineWriter: Sendable {
    /// The line so far (content only, no terminator).
    public private(set) var bytes: [UInt8]
    private var hasAttributes = false

    /// Starts the line of tag `tag` (`EXT-X-KEY`, without `#`). A name other than `EXT` and
    /// upper-case letters, digits and `-` is a programming error: tag names are the writer's own constants.
    public init(tag: String) {
        precondition(tag.hasPrefix("EXT") && Self.isName(tag), "not a tag name: \(tag)")
        bytes = Array("#\(tag):".utf8)
        bytes.reserveCapacity(160)
    }

    /// Appends `name=value`, or throws (and leaves the line as it was) when `value` does not fit its type or
    /// `name` is not an attribute name.
    public mutating func append(_ name: String, _ value: AttributeValue) throws(UnwritableAttributeValue) {
        guard Self.isName(name) else { throw UnwritableAttributeValue(attribute: name, type: value.type, problem: .invalidName) }
        let encoded = try value.encoded(as: name)
        if hasAttributes { bytes.append(UInt8(ascii: ",")) }
        bytes += name.utf8
        bytes.append(UInt8(ascii: "="))
        bytes += encoded
        hasAttributes = true
    }

    /// A tag whose value is one decimal-integer, such as `#EXT-X-VERSION:5`.
    public static func line(tag: String, decimalInteger value: UInt64) -> [UInt8] {
        var writer = TagLineWriter(tag: tag)
        writer.bytes += String(value).utf8
        return writer.bytes
    }

    /// Whether `name` is an attribute name (RFC 8216 4.2: `[A-Z0-9-]`), which tag names follow too.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(AttributeListParser.isNameByte)
    }
}
