/// The findings the reader itself makes while it parses: encoding, line structure, attribute-list grammar
/// and tag values. Validation rules built on top of the reader (in `SKDPack`) add their own.
public enum ParseDiagnostics {
    public static let notAPlaylist = DiagnosticKind(
        id: "HLS-not-a-playlist", severity: .error,
        summary: "The file is not a playlist at all (an MP4 or MPEG-TS file, other binary data): nothing else is reported.",
        specSection: "4")
    public static let variantWithoutURI = DiagnosticKind(
        id: "HLS-stream-inf-without-uri", severity: .error,
        summary: "An EXT-X-STREAM-INF tag is not followed by the URI line of its variant.", specSection: "4.3.4.2")
    public static let emptyPlaylist = DiagnosticKind(
        id: "HLS-empty-playlist", severity: .error,
        summary: "The file is empty; a playlist starts with #EXTM3U.", specSection: "4.3.1.1")
    public static let missingHeader = DiagnosticKind(
        id: "HLS-extm3u-first", severity: .error,
        summary: "The first line of a playlist must be #EXTM3U.", specSection: "4.3.1.1")
    public static let byteOrderMark = DiagnosticKind(
        id: "HLS-byte-order-mark", severity: .error,
        summary: "Playlists must not start with a byte order mark.", specSection: "4.1")
    public static let controlCharacter = DiagnosticKind(
        id: "HLS-control-character", severity: .error,
        summary: "Playlists must not contain control characters other than CR and LF.", specSection: "4.1")
    public static let tabCharacter = DiagnosticKind(
        id: "HLS-tab-character", severity: .error,
        summary: "A tab is a control character, which playlists must not contain (an EXTINF title included); "
            + "only EXT-X-SKIP's RECENTLY-REMOVED-DATERANGES list is tab-delimited (rfc8216bis 4.4.5.2).",
        specSection: "4.1")
    public static let whitespace = DiagnosticKind(
        id: "HLS-whitespace", severity: .error,
        summary: "Spaces around a URI line, or a line of only spaces: a playlist holds no whitespace but where an "
            + "element allows it.",
        specSection: "4.1")
    public static let invalidUTF8 = DiagnosticKind(
        id: "HLS-invalid-utf8", severity: .error,
        summary: "Playlists must be UTF-8.", specSection: "4.1")
    public static let lineTooLong = DiagnosticKind(
        id: "HLS-line-too-long", severity: .error,
        summary: "A line is longer than the reader's limit; it is passed through but not parsed.",
        specSection: "4.1")
    public static let playlistTooLarge = DiagnosticKind(
        id: "HLS-playlist-too-large", severity: .error,
        summary: "The playlist is larger than the reader's limit (a guard of skdpack's, not of the RFC); nothing past it is read.",
        specSection: "4.1")
    public static let tooManySegments = DiagnosticKind(
        id: "HLS-too-many-segments", severity: .error,
        summary: "The playlist has more segments than the reader's limit (a guard of skdpack's, not of the RFC); nothing past it is read.",
        specSection: "3")
    public static let attributeWhitespace = DiagnosticKind(
        id: "HLS-attribute-whitespace", severity: .error,
        summary: "An attribute list must not contain whitespace outside quoted strings.", specSection: "4.2")
    public static let attributeDuplicate = DiagnosticKind(
        id: "HLS-attribute-duplicate", severity: .error,
        summary: "An attribute list must not name the same attribute twice.", specSection: "4.2")
    public static let unterminatedQuote = DiagnosticKind(
        id: "HLS-attribute-unterminated-quote", severity: .error,
        summary: "A quoted-string attribute value lacks its closing double quote.", specSection: "4.2")
    public static let attributeSyntax = DiagnosticKind(
        id: "HLS-attribute-syntax", severity: .error,
        summary: "An attribute list is not a comma-separated list of NAME=value pairs.", specSection: "4.2")
    public static let attributeType = DiagnosticKind(
        id: "HLS-attribute-type", severity: .error,
        summary: "An attribute value does not have the type the tag defines for it.", specSection: "4.2")
    public static let attributeMissing = DiagnosticKind(
        id: "HLS-attribute-missing", severity: .error,
        summary: "A tag lacks an attribute it requires.", specSection: "4.3")
    public static let tagValue = DiagnosticKind(
        id: "HLS-tag-value", severity: .error,
        summary: "A tag's value does not follow the tag's grammar.", specSection: "4.3")
    public static let tagRepeated = DiagnosticKind(
        id: "HLS-tag-repeated", severity: .error,
        summary: "A tag that may appear once per playlist appears again.", specSection: "4.3.3")
    public static let removedTag = DiagnosticKind(
        id: "HLS-removed-tag", severity: .info,
        summary: "A tag removed from the protocol at or below the playlist's EXT-X-VERSION: clients ignore it.",
        specSection: "rfc8216bis-22 7")
    public static let uriWithoutDuration = DiagnosticKind(
        id: "HLS-extinf-missing", severity: .error,
        summary: "Each media segment URI must follow an #EXTINF tag.", specSection: "4.3.2.1")
    public static let durationWithoutURI = DiagnosticKind(
        id: "HLS-extinf-without-uri", severity: .error,
        summary: "An #EXTINF tag is not followed by the segment's URI.", specSection: "4.3.2.1")
    public static let undefinedVariable = DiagnosticKind(
        id: "HLS-undefined-variable", severity: .error,
        summary: "A {$name} reference has no EXT-X-DEFINE before it.", specSection: "bis 4.3")
    public static let defineDuplicate = DiagnosticKind(
        id: "HLS-define-duplicate", severity: .error,
        summary: "Two EXT-X-DEFINE tags define the same variable.", specSection: "bis 4.4.2.3")
    public static let keyMethodMissing = DiagnosticKind(
        id: "KEY-method-missing", severity: .error,
        summary: "An EXT-X-KEY or EXT-X-SESSION-KEY lacks METHOD.", specSection: "4.3.2.4")
    public static let keyURIMissing = DiagnosticKind(
        id: "KEY-uri-missing", severity: .error,
        summary: "A key whose METHOD is not NONE lacks URI.", specSection: "4.3.2.4")
    public static let keyIVFormat = DiagnosticKind(
        id: "KEY-iv-format", severity: .error,
        summary: "IV must be a hexadecimal-sequence of a 128-bit number: 0x and at most 32 hex digits.",
        specSection: "4.3.2.4")
    public static let keyIVShort = DiagnosticKind(
        id: "KEY-iv-short", severity: .info,
        summary:
            "IV has fewer than 32 hex digits: a legal hexadecimal-sequence of a 128-bit number, but players differ on how they pad it.",
        specSection: "rfc8216bis-22 4.4.4.1 (IV); 4.2 (hexadecimal-sequence)")

    /// Every kind above, in id order: what `skdpack rules` lists for the reader.
    public static let all: [DiagnosticKind] = [
        notAPlaylist, variantWithoutURI, emptyPlaylist, missingHeader, byteOrderMark, controlCharacter, tabCharacter, whitespace,
        invalidUTF8,
        lineTooLong,
        playlistTooLarge, tooManySegments,
        attributeWhitespace, attributeDuplicate, unterminatedQuote, attributeSyntax, attributeType,
        attributeMissing, tagValue, tagRepeated, removedTag, uriWithoutDuration, durationWithoutURI,
        undefinedVariable, defineDuplicate, keyMethodMissing, keyURIMissing, keyIVFormat, keyIVShort,
    ].sorted { $0.id < $1.id }
}
