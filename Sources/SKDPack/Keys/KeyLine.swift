import HLS

/// An `EXT-X-KEY` or `EXT-X-SESSION-KEY` line as `apply` sees it: which system it is for, whether FairPlay
/// can use its METHOD, its URI as written and as a player reads it.
struct KeyLine {
    let attributes: AttributeList
    /// Whether KEYFORMAT is FairPlay's; read from the bytes, as most keys of a multi-DRM playlist are not.
    let isFairPlay: Bool
    /// Whether METHOD is SAMPLE-AES, the one FairPlay decrypts.
    let methodIsFairPlayCompatible: Bool
    /// The URI after `{$variable}` substitution: what a player requests, and what `--match` reads.
    let resolvedURI: String?
    /// KEYID as 32 lowercase hex digits, if the key has one.
    var kid: String? { attributes["KEYID"].flatMap { Self.normalizedKeyID($0.textBytes) } }

    /// The key of a key line whose attributes the reader has read (``PlaylistReader/currentAttributes``).
    init?(attributes: AttributeList, variables: VariableScope) {
        guard attributes.line.starts(with: Self.keyPrefix) || attributes.line.starts(with: Self.sessionKeyPrefix) else { return nil }
        self.attributes = attributes
        self.isFairPlay = Self.isFairPlay(attributes)
        self.methodIsFairPlayCompatible = attributes.attribute("METHOD", is: FairPlay.method, quoted: false)
        self.resolvedURI = isFairPlay ? attributes["URI"].flatMap { $0.isQuoted ? variables.substitute($0.text).text : nil } : nil
    }

    /// The typed view, built when asked for (FairPlay keys being rewritten).
    var tag: KeyTag { KeyTag(attributes: attributes, isSessionKey: attributes.line.starts(with: Self.sessionKeyPrefix)) }

    private static let keyPrefix = Array("#EXT-X-KEY:".utf8)
    private static let sessionKeyPrefix = Array("#EXT-X-SESSION-KEY:".utf8)

    /// Whether a key's attributes say FairPlay: an explicit `KEYFORMAT="com.apple.streamingkeydelivery"`.
    static func isFairPlay(_ attributes: AttributeList) -> Bool {
        attributes.attribute("KEYFORMAT", is: FairPlay.keyFormat, quoted: true)
    }

    /// `0x` and 32 hex digits (either case) as 32 lowercase hex digits.
    static func normalizedKeyID(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count == 34, NumberParsing.isHexadecimalSequence(bytes) else { return nil }
        return String(decoding: bytes.dropFirst(2).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
