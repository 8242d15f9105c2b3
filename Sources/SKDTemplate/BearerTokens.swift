import Glibc
import SKDBytes

/// Secrets recognised in any URI by their form alone, whatever wrote the URI (a packager, an inline
/// template, a CPIX document): the rule docs/architecture.md (Secrets) states.
/// - a JSON Web Token anywhere: `eyJ`, then three base64url parts joined by dots (the last may be empty);
/// - a query parameter whose name, in any letter case, ends in `token`, `signature` or `secret`, or is one of
///   the names ``isSecretName(_:)`` lists (what CDNs and license services sign or authenticate with), with a value of at least
///   ``minimumLength`` characters (as written, and percent-decoded);
/// - the password of a URI's user information (`https://user:password@host/`), 8 characters or more.
/// A shorter value is not taken for a token: a redaction replaces every occurrence of a secret, and a
/// value of a few characters would hide unrelated text.
///
/// Asked of every key URI a run reads (a rendered URI's tokens are its values', ``KeyTemplate/withBearerSecrets(_:)``):
/// a URI without `?`, `J` or `@` is told so by three `memchr`s, and a query's names are compared on their bytes.
public enum BearerTokens {
    public static let minimumLength = 8
    public static func secrets(in text: String) -> [Secret] {
        var text = text
        return text.withUTF8 { secrets(in: UnsafeRawBufferPointer($0)) }
    }

    public static func secrets(in uri: UnsafeRawBufferPointer) -> [Secret] {
        guard let base = uri.baseAddress, uri.count >= minimumLength else { return [] }
        var found: [Secret] = []
        if memchr(base, Int32(UInt8(ascii: "J")), uri.count) != nil { jsonWebTokens(in: uri, into: &found) }
        // Each query of the text: a message or a quoted line may hold several URIs, each ending where a URI
        // cannot go on (a quote, a space, the end of the text).
        var from = 0
        while from < uri.count, let mark = memchr(base + from, Int32(UInt8(ascii: "?")), uri.count - from) {
            from = queryValues(in: uri, from: base.distance(to: mark) + 1, into: &found)
        }
        if memchr(base, Int32(UInt8(ascii: "@")), uri.count) != nil { password(in: uri, into: &found) }
        return found
    }

    private static func jsonWebTokens(in uri: UnsafeRawBufferPointer, into found: inout [Secret]) {
        var start = 0
        while start + 3 <= uri.count {
            guard uri[start] == UInt8(ascii: "e"), uri[start + 1] == UInt8(ascii: "y"), uri[start + 2] == UInt8(ascii: "J") else {
                start += 1
                continue
            }
            var end = start
            var dots = 0
            while end < uri.count {
                let byte = uri[end]
                if byte == UInt8(ascii: "."), dots < 2 {
                    dots += 1
                } else if !isBase64URL(byte) {
                    break
                }
                end += 1
            }
            // A last part left empty by an ellipsis ("eyJ….abc..." cut short in a message) is no token: the cut is.
            let cut = end < uri.count && uri[end] == UInt8(ascii: ".") && uri[end - 1] == UInt8(ascii: ".")
            if dots == 2, !cut, end - start >= 16 { found.append(Secret(String(decoding: uri[start..<end], as: UTF8.self))) }
            start = max(end, start + 3)
        }
    }

    /// The values the rule takes of the query from `start` to its end: a `#`, or a byte no URI holds (RFC 3986:
    /// a quote, a space, `<`, a control character); where it ends. Parameters are split at `&` and `;`, and
    /// read in one pass, a byte at a time (a few instructions each).
    private static func queryValues(in uri: UnsafeRawBufferPointer, from start: Int, into found: inout [Secret]) -> Int {
        var index = start
        var name = start
        var equals: Int?
        while true {
            let byte = index < uri.count ? uri[index] : 0
            let ends = index >= uri.count || !isQueryByte(byte)
            if ends || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") {
                if let equals, index - equals - 1 >= minimumLength, isSecretName(UnsafeRawBufferPointer(rebasing: uri[name..<equals])) {
                    note(String(decoding: uri[(equals + 1)..<index], as: UTF8.self), into: &found)
                }
                if ends { return index }
                (name, equals) = (index + 1, nil)
            } else if byte == UInt8(ascii: "="), equals == nil {
                equals = index
            }
            index += 1
        }
    }

    /// Whether `byte` may stand in a URI's query (RFC 3986: unreserved, sub-delims, `:`, `@`, `/`, `?`, `%`),
    /// from a bit mask of the 128 ASCII bytes: `#` ends a query, and so does anything a URI cannot hold.
    @inline(__always)
    private static func isQueryByte(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0xAFFF_FFF2_0000_0000
        let high: UInt64 = 0x47FF_FFFE_87FF_FFFF
        return byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 ? (high >> (byte &- 64)) & 1 == 1 : false
    }

    /// A parameter's value the rule takes, as written and percent-decoded.
    private static func note(_ value: String, into found: inout [Secret]) {
        found.append(Secret(value))
        if let decoded = URIEscaping.decode(value), decoded != value, decoded.utf8.count >= minimumLength {
            found.append(Secret(decoded))
        }
    }

    private static func password(in uri: UnsafeRawBufferPointer, into found: inout [Secret]) {
        let separator: StaticString = "://"
        guard let scheme = Bytes.offset(of: UnsafeRawBufferPointer(start: separator.utf8Start, count: 3), in: uri) else { return }
        var index = scheme + 3
        var colon: Int?
        while index < uri.count {
            let byte = uri[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || !isQueryByte(byte) { return }
            if byte == UInt8(ascii: ":"), colon == nil { colon = index }
            if byte == UInt8(ascii: "@") {
                if let colon, index - colon - 1 >= minimumLength {
                    found.append(Secret(String(decoding: uri[(colon + 1)..<index], as: UTF8.self)))
                }
                return
            }
            index += 1
        }
    }

    /// Whether a query parameter's name is one the rule takes, compared on its bytes in any letter case
    /// (told apart by length first: a name the rule does not take costs a comparison or two).
    public static func isSecretName(_ name: UnsafeRawBufferPointer) -> Bool {
        // Akamai's `__token__` and `__hdnea__`: the name between its underscores.
        var name = name
        if name.first == UInt8(ascii: "_") || name.last == UInt8(ascii: "_") {
            var (start, end) = (0, name.count)
            while start < end, name[start] == UInt8(ascii: "_") { start += 1 }
            while end > start, name[end - 1] == UInt8(ascii: "_") { end -= 1 }
            name = UnsafeRawBufferPointer(rebasing: name[start..<end])
        }
        let count = name.count
        if count >= 5, endsWith(name, "token") { return true }
        if count >= 6, endsWith(name, "secret") { return true }
        if count >= 9, endsWith(name, "signature") { return true }
        switch count {
        case 3: return endsWith(name, "sig") || endsWith(name, "jwt")
        case 4: return endsWith(name, "auth")
        case 5: return endsWith(name, "hdnts") || endsWith(name, "hdnea")
        case 6: return endsWith(name, "policy") || endsWith(name, "apikey") || endsWith(name, "passwd")
        case 7: return endsWith(name, "api_key") || endsWith(name, "api-key")
        case 8: return endsWith(name, "password")
        case 10: return endsWith(name, "credential")
        case 11: return endsWith(name, "key-pair-id")
        case 13: return endsWith(name, "authorization")
        case 14: return endsWith(name, "wowzatokenhash")
        case 16: return endsWith(name, "x-amz-credential")
        case 17: return endsWith(name, "x-goog-credential")
        default: return false
        }
    }

    /// Whether `bytes` ends with `lower` (lower case ASCII), in any letter case.
    @inline(__always)
    private static func endsWith(_ bytes: UnsafeRawBufferPointer, _ lower: StaticString) -> Bool {
        let count = lower.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = bytes.count - count
        let expected = lower.utf8Start
        for index in 0..<count {
            let byte = bytes[start + index]
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
