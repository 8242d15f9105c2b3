import Glibc
import SKDBytes
import SKDTemplate

/// Secrets recognised in any URI by their form alone, whatever wrote the URI (a packager, an inline
/// template, a CPIX document): the rule docs/architecture.md (Secrets) states.
/// - a JSON Web Token anywhere: `eyJ`, then three base64url parts joined by dots (the last may be empty);
/// - a query parameter whose name, in any letter case, ends in `token`, `signature` or `secret`, or is one of
///   ``names`` (what CDNs and license services sign or authenticate with), with a value of at least
///   ``minimumLength`` characters (as written, and percent-decoded);
/// - the password of a URI's user information (`https://user:password@host/`).
/// A shorter value is not taken for a token: a redaction replaces every occurrence of a secret, and a
/// value of a few characters would hide unrelated text.
enum BearerTokens {
    static let minimumLength = 8
    static let names: Set<String> = [
        "sig", "auth", "authorization", "jwt", "hdnts", "hdnea", "policy", "key-pair-id", "apikey", "api_key", "api-key",
        "password", "passwd", "credential", "x-amz-credential", "x-goog-credential",
    ]

    static func secrets(in uri: UnsafeRawBufferPointer) -> [Secret] {
        guard let base = uri.baseAddress, uri.count >= minimumLength else { return [] }
        var found: [Secret] = []
        jsonWebTokens(in: uri, into: &found)
        if let mark = memchr(base, Int32(UInt8(ascii: "?")), uri.count) {
            queryValues(in: uri, from: base.distance(to: mark) + 1, into: &found)
        }
        password(in: uri, into: &found)
        return found
    }

    private static func jsonWebTokens(in uri: UnsafeRawBufferPointer, into found: inout [Secret]) {
        var from = 0
        let marker: StaticString = "eyJ"
        let needle = UnsafeRawBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        while from < uri.count, let hit = Bytes.offset(of: needle, in: UnsafeRawBufferPointer(rebasing: uri[from...])) {
            let start = from + hit
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
            if dots == 2, end - start >= 16 { found.append(Secret(String(decoding: uri[start..<end], as: UTF8.self))) }
            from = max(end, start + 3)
        }
    }

    private static func queryValues(in uri: UnsafeRawBufferPointer, from start: Int, into found: inout [Secret]) {
        var position = start
        while position < uri.count {
            var end = position
            var equals: Int?
            while end < uri.count, uri[end] != UInt8(ascii: "&"), uri[end] != UInt8(ascii: ";"), uri[end] != UInt8(ascii: "#") {
                if equals == nil, uri[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if let equals, end - equals - 1 >= minimumLength, isSecretName(UnsafeRawBufferPointer(rebasing: uri[position..<equals])) {
                let value = String(decoding: uri[(equals + 1)..<end], as: UTF8.self)
                found.append(Secret(value))
                if let decoded = TemplateMatcher.percentDecoded(value), decoded != value { found.append(Secret(decoded)) }
            }
            if end < uri.count, uri[end] == UInt8(ascii: "#") { return }
            position = end + 1
        }
    }

    private static func password(in uri: UnsafeRawBufferPointer, into found: inout [Secret]) {
        let separator: StaticString = "://"
        guard let scheme = Bytes.offset(of: UnsafeRawBufferPointer(start: separator.utf8Start, count: 3), in: uri) else { return }
        var index = scheme + 3
        var colon: Int?
        while index < uri.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(uri[index]) {
            if uri[index] == UInt8(ascii: ":"), colon == nil { colon = index }
            if uri[index] == UInt8(ascii: "@") {
                if let colon, index > colon + 1 { found.append(Secret(String(decoding: uri[(colon + 1)..<index], as: UTF8.self))) }
                return
            }
            index += 1
        }
    }

    private static func isSecretName(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= 3 else { return false }
        let lower = String(decoding: name.map { $0 | (($0 >= 0x41 && $0 <= 0x5A) ? 0x20 : 0) }, as: UTF8.self)
        return lower.hasSuffix("token") || lower.hasSuffix("signature") || lower.hasSuffix("secret") || names.contains(lower)
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
