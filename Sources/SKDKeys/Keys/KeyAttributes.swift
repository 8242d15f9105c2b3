import HLS

/// The attributes of a FairPlay key line skdpack writes: what an `EXT-X-KEY` and the master's
/// `EXT-X-SESSION-KEY` for it share (RFC 8216 4.3.4.5: the session key copies the media key's METHOD, URI,
/// IV, KEYFORMAT and KEYFORMATVERSIONS).
public struct KeyAttributes: Hashable, Sendable {
    public var method: String
    public var uri: String
    public var keyFormat: String
    public var keyFormatVersions: String?
    /// `0x` and 32 hexadecimal digits.
    public var iv: String?

    /// Hashed by its URI alone (equal keys have equal URIs): a key-rotated playlist puts a key per period into a
    /// set, and hashing every attribute cost more than the rest of the key's validation.
    public func hash(into hasher: inout Hasher) { hasher.combine(uri) }

    public init(method: String, uri: String, keyFormat: String, keyFormatVersions: String?, iv: String?) {
        self.method = method
        self.uri = uri
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.iv = iv
    }

    /// The whole tag line (`tag` is `.key` or `.sessionKey`), attributes in the order skdpack writes keys:
    /// METHOD, URI, IV, KEYFORMAT, KEYFORMATVERSIONS. Throws when a value does not fit its attribute's type.
    public func line(_ tag: TagName) throws(UnwritableAttributeValue) -> [UInt8] {
        var writer = TagLineWriter(tag: tag.rawValue)
        try writer.append("METHOD", .enumeratedString(method))
        try writer.append("URI", .quotedString(uri))
        if let iv { try writer.append("IV", .hexadecimalSequence(iv)) }
        try writer.append("KEYFORMAT", .quotedString(keyFormat))
        if let keyFormatVersions { try writer.append("KEYFORMATVERSIONS", .quotedString(keyFormatVersions)) }
        return writer.bytes
    }

    /// Sets these attributes on an existing key line, keeping its other attributes, their order and
    /// spelling: for a session key that takes the place of a stale one.
    public func edit(_ editor: inout TagLineEditor) throws(UnwritableAttributeValue) {
        try editor.set("METHOD", .enumeratedString(method))
        try editor.set("URI", .quotedString(uri))
        if let iv { try editor.set("IV", .hexadecimalSequence(iv)) } else { editor.remove("IV") }
        try editor.set("KEYFORMAT", .quotedString(keyFormat))
        if let keyFormatVersions { try editor.set("KEYFORMATVERSIONS", .quotedString(keyFormatVersions)) }
    }

    /// The line as a message shows it (a value that cannot be written is shown as it is, escaped).
    public func text(_ tag: TagName) -> String {
        (try? line(tag)).map { String(decoding: $0, as: UTF8.self) }
            ?? "#\(tag.rawValue):METHOD=\(method),URI=\"\(uri.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())\",..."
    }
}
