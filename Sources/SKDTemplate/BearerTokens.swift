import Glibc
import SKDBytes

/// Secrets recognised in any URI by their form alone, whatever wrote the URI (a packager, an inline
/// template, a CPIX document): the rule docs/architecture.md (Secrets) states.
/// - a JSON Web Token anywhere: `eyJ`, then three base64url parts joined by dots (the last may be empty);
/// - a query parameter whose name, in any letter case, ends in `token`, `signature` or `secret`, or is one of
///   the names ``isSecretName(_:)`` lists (what CDNs and license services sign or authenticate with), with a value of at least
///   ``minimumLength`` characters (as written, and percent-decoded);
/// - the password of a URI's user information (`https://user:password@host/`), 8 characters or more, or a
///   user name of 16 characters or more without one (a token used as a user name);
/// - in any text, such a `name=value` wherever it stands: a path segment (`/hdnts=…/`), an attribute's
///   value (`VALUE="token=…"`), a message.
/// A shorter value is not taken for a token: a redaction replaces every occurrence of a secret, and a
/// value of a few characters would hide unrelated text.
///
/// Asked of every key URI a run reads (``secrets(inURI:)``; a rendered URI's tokens are its values',
/// ``KeyTemplate/withBearerSecrets(_:)``) and of every text a run shows (``secrets(in:)-(String)``): a text
/// without `?`, `J` or `@` is told so by three `memchr`s, and a query's names are compared on their bytes.
public enum BearerTokens {
    public static let minimumLength = 8
    /// The secrets of a text that may quote URIs (a message, a quoted line, a report's field, a value): each
    /// query ends at its fragment or where a URI cannot go on (a quote, a space, a control character).
    public static func secrets(in text: String) -> [Secret] {
        var text = text
        return text.withUTF8 { secrets(in: UnsafeRawBufferPointer($0)) }
    }

    /// The same over bytes.
    public static func secrets(in text: UnsafeRawBufferPointer) -> [Secret] { secrets(in: text, oneURI: false) }

    /// The secrets of one URI, as read from a key's attribute (a quoted string: no quote, no line break in it):
    /// its query runs to its fragment or its end. Asked of every key URI a run reads, it skips each value
    /// with one `memchr` where a text's queries are read a byte at a time.
    public static func secrets(inURI uri: UnsafeRawBufferPointer) -> [Secret] { secrets(in: uri, oneURI: true) }

    private static func secrets(in text: UnsafeRawBufferPointer, oneURI: Bool) -> [Secret] {
        guard let base = text.baseAddress, text.count >= minimumLength else { return [] }
        var found: [Secret] = []
        if memchr(base, Int32(UInt8(ascii: "J")), text.count) != nil { jsonWebTokens(in: text, into: &found) }
        if oneURI {
            if let mark = memchr(base, Int32(UInt8(ascii: "?")), text.count) {
                let start = base.distance(to: mark) + 1
                queryValues(in: text, start..<fragment(in: text, from: start), into: &found)
            }
        } else {
            pairs(in: text, into: &found)
        }
        if memchr(base, Int32(UInt8(ascii: "@")), text.count) != nil { password(in: text, into: &found) }
        return found
    }

    /// Every `name=value` of a text whose name the rule takes, wherever it stands: in a URI's query, as a path
    /// segment (`/hdnts=…/`), as an attribute's value (`VALUE="token=…"`), in a message. A name starts after
    /// `?`, `&`, `;`, `/`, `,`, `:` or a byte that ends a URI quoted in text; its value ends at `&`, `;`, `#`, such
    /// a byte, or, for a path segment, `/`, and before the punctuation that closes a quote.
    private static func pairs(in text: UnsafeRawBufferPointer, into found: inout [Secret]) {
        let base = text.baseAddress!
        var from = 0
        while from < text.count, let mark = memchr(base + from, Int32(UInt8(ascii: "=")), text.count - from) {
            let equals = base.distance(to: mark)
            var name = equals
            while name > 0, !startsName(text[name - 1]) { name -= 1 }
            let inPath = name > 0 && text[name - 1] == UInt8(ascii: "/")
            guard equals > name, isSecretName(UnsafeRawBufferPointer(rebasing: text[name..<equals])) else {
                from = equals + 1
                continue
            }
            var end = equals + 1
            while end < text.count {
                let byte = text[end]
                if byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#") || endsURI(byte)
                    || (inPath && byte == UInt8(ascii: "/"))
                {
                    break
                }
                end += 1
            }
            note(value: (equals + 1)..<end, of: text, into: &found)
            from = end
        }
    }

    /// Whether a parameter's name starts after `byte`.
    @inline(__always)
    private static func startsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "/"), UInt8(ascii: ","), UInt8(ascii: ":"),
            UInt8(ascii: "="):
            true
        default: endsURI(byte)
        }
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
            let cut =
                end + 1 < uri.count && uri[end - 1] == UInt8(ascii: ".") && uri[end] == UInt8(ascii: ".")
                && uri[end + 1] == UInt8(ascii: ".")
            if dots == 2, !cut, end - start >= 16 { found.append(Secret(String(decoding: uri[start..<end], as: UTF8.self))) }
            start = max(end, start + 3)
        }
    }

    /// Where the query from `start` ends in a URI: at its fragment, or the URI's end.
    private static func fragment(in uri: UnsafeRawBufferPointer, from start: Int) -> Int {
        let base = uri.baseAddress!
        return memchr(base + start, Int32(UInt8(ascii: "#")), uri.count - start).map { base.distance(to: $0) } ?? uri.count
    }

    /// Whether `byte` may close the quote or the sentence around a URI: `'`, `)`, `,`, `.`, `!`.
    @inline(__always)
    private static func closesQuote(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "!"): true
        default: false
        }
    }

    /// Whether `byte` ends a URI quoted in a text: a space or a control character, a double quote, `<` or `>`.
    @inline(__always)
    private static func endsURI(_ byte: UInt8) -> Bool {
        // (A backslash is no URI's: it ends a value in JSON text, where a quote after the URI is escaped.)
        byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\\")
    }

    /// The values the rule takes of the query at `range`, its parameters split at `&`, and at `;` where one is
    /// written (looked for once: most queries have none). A parameter's name is read a byte at a time (a few
    /// bytes), its value skipped by memchr: a byte loop over a whole query, or three searches a parameter,
    /// cost a rotating playlist more than its key map.
    private static func queryValues(in text: UnsafeRawBufferPointer, _ range: Range<Int>, into found: inout [Secret]) {
        let base = text.baseAddress!
        let end = range.upperBound
        let semicolons = memchr(base + range.lowerBound, Int32(UInt8(ascii: ";")), range.count) != nil
        var position = range.lowerBound
        while position < end {
            var nameEnd = position
            while nameEnd < end {
                let byte = text[nameEnd]
                if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") { break }
                nameEnd += 1
            }
            guard nameEnd < end, text[nameEnd] == UInt8(ascii: "=") else {
                position = nameEnd + 1
                continue
            }
            let value = nameEnd + 1
            var valueEnd = memchr(base + value, Int32(UInt8(ascii: "&")), end - value).map { base.distance(to: $0) } ?? end
            if semicolons {
                valueEnd = memchr(base + value, Int32(UInt8(ascii: ";")), valueEnd - value).map { base.distance(to: $0) } ?? valueEnd
            }
            if valueEnd - value >= minimumLength, isSecretName(UnsafeRawBufferPointer(rebasing: text[position..<nameEnd])) {
                note(value: value..<valueEnd, of: text, into: &found)
            }
            position = valueEnd + 1
        }
    }

    /// The value at `range` of a parameter whose name the rule takes, unless it is too short: up to the
    /// punctuation that closes a quote or a sentence around it (`'…?token=X'.`).
    private static func note(value range: Range<Int>, of text: UnsafeRawBufferPointer, into found: inout [Secret]) {
        var end = range.upperBound
        while end > range.lowerBound, closesQuote(text[end - 1]) { end -= 1 }
        guard end - range.lowerBound >= minimumLength else { return }
        // A template's placeholder (`token={cdn_token}`) stands where a token will be: it is none.
        if text[range.lowerBound] == UInt8(ascii: "{"), text[end - 1] == UInt8(ascii: "}") { return }
        note(String(decoding: text[range.lowerBound..<end], as: UTF8.self), into: &found)
    }

    /// A value the rule takes, as written and percent-decoded.
    private static func note(_ value: String, into found: inout [Secret]) {
        found.append(Secret(value))
        if let decoded = URIEscaping.decode(value), decoded != value, decoded.utf8.count >= minimumLength {
            found.append(Secret(decoded))
        }
    }

    /// The password of each URI's user information (a text may quote several URIs).
    private static func password(in text: UnsafeRawBufferPointer, into found: inout [Secret]) {
        let separator: StaticString = "://"
        let needle = UnsafeRawBufferPointer(start: separator.utf8Start, count: 3)
        var from = 0
        while from < text.count, let scheme = Bytes.offset(of: needle, in: UnsafeRawBufferPointer(rebasing: text[from...])) {
            var index = from + scheme + 3
            var colon: Int?
            authority: while index < text.count {
                let byte = text[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || endsURI(byte) { break }
                if byte == UInt8(ascii: ":"), colon == nil { colon = index }
                if byte == UInt8(ascii: "@") {
                    if let colon, index - colon - 1 >= minimumLength {
                        found.append(Secret(String(decoding: text[(colon + 1)..<index], as: UTF8.self)))
                    } else if colon == nil, index - (from + scheme + 3) >= 16 {
                        // A user name of 16 characters or more is a token used as one (`https://ghp_…@host`).
                        found.append(Secret(String(decoding: text[(from + scheme + 3)..<index], as: UTF8.self)))
                    }
                    break authority
                }
                index += 1
            }
            from = index
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
        case 3: return endsWith(name, "sig") || endsWith(name, "jwt") || endsWith(name, "md5")
        case 4: return endsWith(name, "auth") || endsWith(name, "sign") || endsWith(name, "hmac")
        case 5: return endsWith(name, "hdnts") || endsWith(name, "hdnea") || endsWith(name, "hdntl")
        case 6: return endsWith(name, "policy") || endsWith(name, "apikey") || endsWith(name, "passwd")
        case 7: return endsWith(name, "api_key") || endsWith(name, "api-key")
        case 8: return endsWith(name, "password") || endsWith(name, "auth_key")
        case 10: return endsWith(name, "credential")
        case 11: return endsWith(name, "key-pair-id") || endsWith(name, "wmsauthsign")
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
