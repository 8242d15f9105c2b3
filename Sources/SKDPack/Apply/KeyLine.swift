import HLS

/// An `EXT-X-KEY` or `EXT-X-SESSION-KEY` line as `apply` sees it: which system it is for, whether FairPlay
/// can use its METHOD, its URI as written and as a player reads it.
struct KeyLine {
    let tag: KeyTag
    let attributes: AttributeList
    /// The URI after `{$variable}` substitution: what a player requests, and what `--match` reads.
    let resolvedURI: String?
    /// KEYID as 32 lowercase hex digits, if the key has one.
    let kid: String?

    /// The key of a key line whose attributes the reader has read (``PlaylistReader/currentAttributes``).
    init?(attributes: AttributeList, variables: VariableScope) {
        guard attributes.line.starts(with: Array("#EXT-X-KEY:".utf8)) || attributes.line.starts(with: Array("#EXT-X-SESSION-KEY:".utf8))
        else { return nil }
        let tag = KeyTag(attributes: attributes, isSessionKey: attributes.line.starts(with: Array("#EXT-X-SESSION-KEY:".utf8)))
        self.tag = tag
        self.attributes = attributes
        self.resolvedURI = tag.uri.map { variables.substitute($0).text }
        self.kid = attributes["KEYID"].flatMap { Self.normalizedKeyID($0.text) }
    }

    var isFairPlay: Bool { FairPlay.isFairPlayKey(tag) }
    var isClear: Bool { tag.isClear }
    /// Whether FairPlay can decrypt segments encrypted with this key's METHOD.
    var methodIsFairPlayCompatible: Bool { tag.method == FairPlay.method }

    /// `0x` and 32 hex digits (either case) as 32 lowercase hex digits.
    static func normalizedKeyID(_ text: String) -> String? {
        guard text.lowercased().hasPrefix("0x") else { return nil }
        let digits = text.dropFirst(2).lowercased()
        return digits.count == 32 && digits.allSatisfy(\.isHexDigit) ? digits : nil
    }
}
