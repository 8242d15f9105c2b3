import Glibc
import HLS
import SKDBytes

/// An `EXT-X-KEY` or `EXT-X-SESSION-KEY` line as `apply` sees it: which system it is for, whether FairPlay
/// can use its METHOD, its URI as written and as a player reads it.
package struct KeyLine {
    package let attributes: AttributeList
    /// Whether KEYFORMAT is FairPlay's; read from the bytes, as most keys of a multi-DRM playlist are not.
    let isFairPlay: Bool
    /// Whether METHOD is SAMPLE-AES, the one FairPlay decrypts: looked at for FairPlay keys only (`false`
    /// for others), as nothing asks it of another system's key.
    let methodIsFairPlayCompatible: Bool
    /// The URI after `{$variable}` substitution: what a player requests, and what `--match` reads. Made
    /// when asked for: a migration that renders from the line's bytes never asks.
    package var resolvedURI: String? {
        guard isFairPlay, let uri = attributes["URI"], uri.isQuoted else { return nil }
        return substitutedURI ?? uri.text
    }
    /// The URI after substitution, when it references variables: the scope is the one in force at the line.
    private let substitutedURI: String?
    /// Whether the URI of this FairPlay key holds `{$`, a variable reference (`false` for other keys).
    package let uriMayReferenceVariable: Bool
    /// KEYID as 32 lowercase hex digits, if the key has one.
    var kid: String? { attributes["KEYID"].flatMap { Self.normalizedKeyID($0.textBytes) } }

    /// The key of a key line whose attributes the reader has read (``PlaylistReader/currentAttributes``).
    package init?(attributes: AttributeList, variables: @autoclosure () -> VariableScope) {
        guard Self.line(attributes.line, startsWith: Self.keyPrefix) || Self.line(attributes.line, startsWith: Self.sessionKeyPrefix)
        else { return nil }
        self.attributes = attributes
        self.isFairPlay = Self.isFairPlay(attributes)
        self.methodIsFairPlayCompatible = isFairPlay && attributes.attribute("METHOD", is: FairPlay.method, quoted: false)
        let uri = isFairPlay ? attributes["URI"] : nil
        let uriMayReferenceVariable = uri?.mayReferenceVariable ?? false
        self.uriMayReferenceVariable = uriMayReferenceVariable
        self.substitutedURI = uri.flatMap { $0.isQuoted && uriMayReferenceVariable ? variables().substitute($0.text).text : nil }
    }

    /// The typed view, built when asked for (FairPlay keys being rewritten).
    package var tag: KeyTag { KeyTag(attributes: attributes, isSessionKey: Self.line(attributes.line, startsWith: Self.sessionKeyPrefix)) }

    private static let keyPrefix: StaticString = "#EXT-X-KEY:"
    private static let sessionKeyPrefix: StaticString = "#EXT-X-SESSION-KEY:"

    /// Whether `line` starts with `prefix`, compared with memcmp (a generic `starts(with:)` walks the bytes
    /// one by one, at every key of a playlist).
    private static func line(_ line: [UInt8], startsWith prefix: StaticString) -> Bool {
        line.withUnsafeBytes { starts($0, with: prefix) }
    }

    private static func starts(_ content: UnsafeRawBufferPointer, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        return content.count >= count && memcmp(content.baseAddress!, prefix.utf8Start, count) == 0
    }

    /// Whether a key's attributes say FairPlay: an explicit `KEYFORMAT="com.apple.streamingkeydelivery"`.
    package static func isFairPlay(_ attributes: AttributeList) -> Bool { attributes.withView(isFairPlay) }

    /// The same, of attributes seen in place.
    package static func isFairPlay(_ attributes: AttributeListView) -> Bool {
        attributes.attribute("KEYFORMAT", is: FairPlay.keyFormat, quoted: true)
    }

    /// Whether `content` is a line ``init(attributes:variables:)`` takes: an EXT-X-KEY or EXT-X-SESSION-KEY.
    package static func isKeyLine(_ content: UnsafeRawBufferPointer) -> Bool {
        starts(content, with: keyPrefix) || starts(content, with: sessionKeyPrefix)
    }

    /// `0x` and 32 hex digits (either case) as 32 lowercase hex digits.
    package static func normalizedKeyID(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBytes(normalizedKeyID)
    }

    /// The same, of bytes read in place.
    static func normalizedKeyID(_ bytes: UnsafeRawBufferPointer) -> String? {
        var digits: [UInt8] = []
        guard normalizedKeyID(bytes, into: &digits) else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The same into `digits` (emptied, its storage kept); `false` (and `digits` empty) when it is not a
    /// key id.
    private static func normalizedKeyID(_ bytes: UnsafeRawBufferPointer, into digits: inout [UInt8]) -> Bool {
        digits.removeAll(keepingCapacity: true)
        guard bytes.count == 34, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x"),
            Bytes.hexWord(bytes, at: 2) != nil, Bytes.hexWord(bytes, at: 18) != nil
        else { return false }
        // Copied at once, then made lowercase in place (`| 0x20` leaves a digit as it is).
        digits.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[2..<34]))
        digits.withUnsafeMutableBufferPointer { digits in
            for index in digits.indices { digits[index] |= 0x20 }
        }
        return true
    }
}
