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
        self.init(attributes: list, isSessionKey: tag.name == .sessionKey)
    }

    /// The key view of a key tag's attribute list.
    public init(attributes list: AttributeList, isSessionKey: Bool) {
        func quoted(_ name: String) -> String? { list[name].flatMap { $0.isQuoted ? $0.text : nil } }
        self.isSessionKey = isSessionKey
        method = list["METHOD"]?.text ?? ""
        uri = quoted("URI")
        iv = list["IV"].flatMap { NumberParsing.hexadecimalDigits($0.text) }
        let format = quoted("KEYFORMAT")
        keyFormat = format ?? Self.defaultKeyFormat
        hasExplicitKeyFormat = format != nil
        keyFormatVersions = quoted("KEYFORMATVERSIONS")
    }

    /// `METHOD=NONE`: the segments that follow are not encrypted.
    public var isClear: Bool { method == "NONE" }
}
