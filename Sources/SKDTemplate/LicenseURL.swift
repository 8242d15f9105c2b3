import Glibc
import SKDBytes

/// The https license URL a player's resource loader derives from an `skd:` URI: it puts `https` in place
/// of `skd` (see Adobe's TVSDK FairPlay guide: `skd://host/path?cid=…` becomes `https://host/path?cid=…`).
public enum LicenseURL {
    public enum Derivation: Hashable, Sendable {
        /// The URI names a server: the https URL, and its host (lower-cased).
        case url(String, host: String)
        /// The URI carries an identifier, not a server (`skd://title-42`): the app must know the server.
        case identifier(String)
        /// Not an `skd://` URI at all.
        case notKeyURI(String)
    }

    public static func derive(fromKeyURI uri: String) -> Derivation {
        if let scheme = nestedScheme(in: uri) { return .notKeyURI(nestedSchemeProblem(scheme)) }
        guard uri.hasPrefix("skd://") else {
            return .notKeyURI(uri.hasPrefix("skd:") ? "skd: without // names no server" : "the scheme is not skd")
        }
        // Split on the UTF-8 bytes of the delimiters, which no multi-byte character holds: the same cuts as
        // on scalars, without breaking the URI into Characters (a template's start-up asks this of its URI).
        let rest = uri.utf8.dropFirst("skd://".utf8.count)
        let authority = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let hostAndPort = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.index(after: $0)...] } ?? authority
        let host: Substring.UTF8View =
            hostAndPort.first == UInt8(ascii: "[")
            ? hostAndPort.prefix { $0 != UInt8(ascii: "]") } : hostAndPort.prefix { $0 != UInt8(ascii: ":") }
        let bracketed = hostAndPort.first == UInt8(ascii: "[")
        let name = lowercased(host) + (bracketed ? "]" : "")
        guard host.contains(UInt8(ascii: ".")) || name == "localhost" || bracketed else {
            return .identifier(String(Substring(authority)))
        }
        return .url("https://" + String(Substring(rest)), host: name)
    }

    /// A host name in lower case: ASCII letters by their bytes, anything else as Unicode says.
    private static func lowercased(_ host: Substring.UTF8View) -> String {
        guard Bytes.isASCII(host) else { return String(Substring(host)).lowercased() }
        return String(decoding: host.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The scheme written after `skd://` (or `skd:`), as in `skd://https://lic.example.com/fps`: `https`,
    /// or nil. Such a URI is always wrong: a resource loader that swaps `skd` for `https` requests
    /// `https://https://…`.
    public static func nestedScheme(in uri: String) -> String? {
        var uri = uri
        return uri.withUTF8 { nestedScheme(in: $0) }
    }

    /// The same, of a URI's bytes (a URI rendered at every key period).
    public static func nestedScheme(in uri: UnsafeBufferPointer<UInt8>) -> String? {
        func starts(at offset: Int, with text: StaticString) -> Bool {
            guard uri.count >= offset + text.utf8CodeUnitCount else { return false }
            return text.withUTF8Buffer { text in
                text.indices.allSatisfy { uri[offset + $0] | (text[$0] >= UInt8(ascii: "a") ? 0x20 : 0) == text[$0] }
            }
        }
        guard uri.count >= 4, uri[0] == UInt8(ascii: "s"), uri[1] == UInt8(ascii: "k"), uri[2] == UInt8(ascii: "d"),
            uri[3] == UInt8(ascii: ":")
        else { return nil }
        let rest = starts(at: 4, with: "//") ? 6 : 4
        // Every scheme looked for starts with h or s: most URIs (an id, a server) are told by one byte.
        guard rest < uri.count, uri[rest] | 0x20 == UInt8(ascii: "h") || uri[rest] | 0x20 == UInt8(ascii: "s") else { return nil }
        for scheme: StaticString in ["https", "http", "skd"] {
            let length = scheme.utf8CodeUnitCount
            if starts(at: rest, with: scheme), starts(at: rest + length, with: ":") || starts(at: rest + length, with: "%3a") {
                return scheme.description
            }
        }
        return nil
    }

    /// What to say of a key URI with a second scheme.
    public static func nestedSchemeProblem(_ scheme: String) -> String {
        "it holds a second scheme (skd://\(scheme)://…), which a player's resource loader would request as "
            + "https://\(scheme)://…: write the server without its scheme (|strip_scheme on the variable that holds it)"
    }

    /// Whether `host` is allowed by `allowHosts` (exact names, or `*.example.com` for any subdomain);
    /// an empty list allows every host.
    public static func isAllowed(host: String, by allowHosts: [String]) -> Bool {
        guard !allowHosts.isEmpty else { return true }
        let host = host.lowercased()
        return allowHosts.contains { allowed in
            let allowed = allowed.lowercased()
            if allowed.hasPrefix("*.") { return host.hasSuffix(allowed.dropFirst(1)) && host.count > allowed.count - 1 }
            return host == allowed
        }
    }

    /// Whether `text` can stand in an allow list: a host name (letters, digits, `-`, `.`), optionally
    /// `*.` before it for its subdomains, or an IPv6 address in brackets.
    public static func isHostPattern(_ text: String) -> Bool {
        var name = Substring(text)
        if name.hasPrefix("*.") { name = name.dropFirst(2) }
        if name.hasPrefix("["), name.hasSuffix("]") {
            return name.count > 2 && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !name.isEmpty && !name.hasPrefix(".") && !name.hasSuffix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// The query parameters that name a title in the entitlement form (`?cid=…`), in lower case. (Not
    /// `asset`: a rendition's or a quality's name as often as a title's.)
    public static let titleParameters: Set<String> = ["cid", "content_id", "contentid", "assetid", "asset_id"]

    /// What is empty in the FairPlay key URI `uri` (`skd:…`, letter case aside), said for its reader; `nil`
    /// when it names something. Nothing after `skd:` and its slashes but a query of empty values, or a title
    /// parameter (``titleParameters``) without a value: the app's resource loader makes an empty content id
    /// or license URL of it, and every title packaged so asks for one key.
    public static func emptiness(of uri: String) -> String? {
        var uri = uri
        return uri.withUTF8 { emptiness(of: $0) }
    }

    /// The same of a URI's bytes (a String is made only for a message): asked of every FairPlay key validate
    /// reads and apply writes, so the query is read by `memchr`, and a parameter's name only where its value
    /// is empty.
    public static func emptiness(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count >= 4, bytes[0] | 0x20 == UInt8(ascii: "s"), bytes[1] | 0x20 == UInt8(ascii: "k"),
            bytes[2] | 0x20 == UInt8(ascii: "d"), bytes[3] == UInt8(ascii: ":")
        else { return nil }
        var start = 4
        while start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
        var namesSomething = start < bytes.count && bytes[start] != UInt8(ascii: "?") && bytes[start] != UInt8(ascii: "#")
        var emptyTitle: String?
        forEachQueryParameter(of: bytes) { name, value in
            if !value.isEmpty {
                namesSomething = true
            } else if emptyTitle == nil, isTitleParameter(name) {
                emptyTitle = String(decoding: name, as: UTF8.self)
            }
        }
        if let emptyTitle {
            return "this FairPlay key URI's \(emptyTitle)= is empty: the app asks the key server for no title; render the "
                + "template with the title's content id"
        }
        guard namesSomething else {
            return "this FairPlay key URI names nothing after its scheme: the app has no content id "
                + "or license server to ask for the key; write skd://{content_id} or the entitlement form skd://server/path?cid={content_id}"
        }
        return nil
    }

    /// Each `name=value` of the query of `uri` (after its first `?`, up to its fragment), split at `&`; a
    /// parameter without `=` has an empty value. The one reading of a key URI's query parameters.
    public static func forEachQueryParameter(
        of uri: UnsafeBufferPointer<UInt8>, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard let base = uri.baseAddress else { return }
        func find(_ byte: UInt8, from: Int, to: Int) -> Int {
            guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        let fragment = find(UInt8(ascii: "#"), from: 0, to: uri.count)
        var parameter = find(UInt8(ascii: "?"), from: 0, to: fragment) + 1
        while parameter < fragment {
            let end = find(UInt8(ascii: "&"), from: parameter, to: fragment)
            let nameEnd = find(UInt8(ascii: "="), from: parameter, to: end)
            body(
                UnsafeBufferPointer(rebasing: uri[parameter..<nameEnd]),
                UnsafeBufferPointer(rebasing: uri[min(nameEnd + 1, end)..<end]))
            parameter = end + 1
        }
    }

    /// Whether `name` is one of ``titleParameters``, letter case aside.
    public static func isTitleParameter(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        titleParameterBytes.contains { known in
            known.count == name.count && zip(known, name).allSatisfy { $0 == ($1 &- UInt8(ascii: "A") < 26 ? $1 | 0x20 : $1) }
        }
    }

    private static let titleParameterBytes = titleParameters.map { Array($0.utf8) }
}
