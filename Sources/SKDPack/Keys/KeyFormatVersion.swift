import HLS

/// The `EXT-X-VERSION` a playlist needs once it has a KEYFORMAT attribute (RFC 8216 section 7: version 5),
/// which `apply` raises or adds.
enum KeyFormatVersion {
    static let number: UInt64 = 5
    /// `#EXT-X-VERSION:5`.
    static let line = TagLineWriter.line(tag: TagName.version.rawValue, decimalInteger: number)
    static let text = String(decoding: line, as: UTF8.self)
    /// The digit that turns a one-digit version line into this one, in place.
    static let digit = Array(String(number).utf8)
}
