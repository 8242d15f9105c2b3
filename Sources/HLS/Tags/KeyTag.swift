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

    /// The key view of a key tag's attribute list: the first attribute of each name, found in one walk
    /// over the spans, told apart by their lengths first (validate reads one at every key tag: a lookup by
    /// name per field made an ``Attribute`` of each).
    public init(attributes list: AttributeList, isSessionKey: Bool) {
        self.isSessionKey = isSessionKey
        var (method, uri, iv, format, versions): (String?, String?, String?, String?, String?) = (nil, nil, nil, nil, nil)
        var (sawURI, sawIV, sawFormat, sawVersions) = (false, false, false, false)
        list.line.withUnsafeBytes { line in
            for span in list.spans {
                let attribute = AttributeView(line: line, span: span)
                switch span.nameRange.count {
                case 6 where method == nil && attribute.isNamed("METHOD"): method = attribute.text
                case 3 where !sawURI && attribute.isNamed("URI"):
                    sawURI = true
                    if span.isQuoted { uri = attribute.text }
                case 2 where !sawIV && attribute.isNamed("IV"):
                    // The hex digits after `0x`, where the value is a hexadecimal-sequence (else none).
                    sawIV = true
                    iv = NumberParsing.hexadecimalDigits(attribute.text)
                case 9 where !sawFormat && attribute.isNamed("KEYFORMAT"):
                    sawFormat = true
                    if span.isQuoted { format = attribute.text }
                case 17 where !sawVersions && attribute.isNamed("KEYFORMATVERSIONS"):
                    sawVersions = true
                    if span.isQuoted { versions = attribute.text }
                default:
                    continue
                }
            }
        }
        self.method = method ?? ""
        self.uri = uri
        self.iv = iv
        keyFormat = format ?? Self.defaultKeyFormat
        hasExplicitKeyFormat = format != nil
        keyFormatVersions = versions
    }

    /// `METHOD=NONE`: the segments that follow are not encrypted.
    public var isClear: Bool { method == "NONE" }
}
