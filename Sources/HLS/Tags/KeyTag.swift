/// The typed view of `EXT-X-KEY` and `EXT-X-SESSION-KEY` (RFC 8216 sections 4.3.2.4 and 4.3.4.5).
public struct KeyTag: Hashable, Sendable, Codable {
    /// The KEYFORMAT a key has when the attribute is absent.
    public static let defaultKeyFormat = "identity"

    public var isSessionKey: Bool
    /// `NONE`, `AES-128`, `SAMPLE-AES`, … as written; empty if METHOD is missing.
    public var method: String
    /// The URI as written, before any `{$var}` substitution.
    public var uri: String?
    /// The IV's hex digits after `0x`, as written.
    public var iv: String?
    /// KEYFORMAT, or `identity` when absent.
    public var keyFormat: String
    public var keyFormatVersions: String?
    /// Whether KEYFORMAT was written (as opposed to defaulted).
    public var hasExplicitKeyFormat: Bool

    /// The key view of `tag`, or `nil` if it is not a key tag.
    public init?(_ tag: Tag) {
        guard tag.name == .key || tag.name == .sessionKey, let list = tag.attributes else { return nil }
        isSessionKey = tag.name == .sessionKey
        method = list["METHOD"]?.text ?? ""
        uri = tag.quotedString("URI")
        iv = list["IV"].flatMap { NumberParsing.hexadecimalDigits($0.text) }
        let format = tag.quotedString("KEYFORMAT")
        keyFormat = format ?? Self.defaultKeyFormat
        hasExplicitKeyFormat = format != nil
        keyFormatVersions = tag.quotedString("KEYFORMATVERSIONS")
    }

    /// `METHOD=NONE`: the segments that follow are not encrypted.
    public var isClear: Bool { method == "NONE" }
}
