import SKDBytes

/// Percent-encoding of variable values, and the check every rendered URI passes (RFC 3986).
///
/// This is what makes a template safe: whatever a value holds (`"`, a newline, `#EXT`, `{$x}`, a NUL,
/// non-ASCII), what reaches the playlist is URI characters only, so a value can never end the quoted
/// attribute it sits in, start a new line, or add an attribute.
public enum URIEscaping {
    /// How much of a value is kept as it is.
    public enum Mode: Sendable {
        /// Keep what may stand in a URI path or query: unreserved, sub-delims, `:`, `@`, `/`, `?`.
        case pathOrQuery
        /// Keep only unreserved characters: for a query value (`{name|url}`), so `&`, `=` and `/` in a
        /// value cannot change the query's structure.
        case queryValue
    }

    /// `value` with every byte `mode` does not keep written as `%HH`. A `%` already followed by two hex
    /// digits is taken as an existing escape and kept, so encoding an encoded value changes nothing.
    public static func encode(_ value: String, _ mode: Mode) -> String {
        var output: [UInt8] = []
        encode(value, mode, appendingTo: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with every `%HH` escape undone; `nil` where an escape is cut short or the bytes it makes are not
    /// UTF-8. (What a value read back from a URI may have been before ``encode(_:_:)``.)
    public static func decode(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Bytes.hexValue), let low = iterator.next().flatMap(Bytes.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The same, appended to `output`: for building a URI in one buffer.
    public static func encode(_ value: String, _ mode: Mode, appendingTo output: inout [UInt8]) {
        var value = value
        value.withUTF8 { encode(bytes: $0, mode, appendingTo: &output) }
    }

    /// The same for a value's UTF-8 bytes: for a value read from a line and never made a `String` (a
    /// `--match` group of the old key URI, at every key of a migration).
    public static func encode(bytes: UnsafeBufferPointer<UInt8>, _ mode: Mode, appendingTo output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count)
        var index = 0
        while index < bytes.count {
            // A run of bytes kept as they are goes in at once: most values are one run.
            var end = index
            while end < bytes.count, isUnreserved(bytes[end]) || (mode == .pathOrQuery && isKeptInPath(bytes[end])) { end += 1 }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            guard end < bytes.count else { break }
            let byte = bytes[end]
            if byte == UInt8(ascii: "%"), end + 2 < bytes.count, isHexDigit(bytes[end + 1]), isHexDigit(bytes[end + 2]) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                Hex.append(byte, uppercase: true, to: &output)
            }
            index = end + 1
        }
    }

    /// What is wrong with `uri` as a FairPlay key URI, or `nil`: it must be an RFC 3986 URI whose scheme
    /// is `skd`, made only of URI characters, with well-formed percent-escapes.
    public static func problem(withKeyURI uri: String) -> String? {
        let bytes = Array(uri.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            return "it has no scheme; a FairPlay key URI starts with skd:"
        }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        guard scheme == "skd" else { return "its scheme is '\(scheme)'; a FairPlay key URI starts with skd:" }
        guard colon + 1 < bytes.count else { return "nothing follows skd:" }
        if let nested = LicenseURL.nestedScheme(in: uri) { return LicenseURL.nestedSchemeProblem(nested) }
        var index = colon + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return "a '%' at byte \(index + 1) does not start a %HH escape"
                }
                index += 3
                continue
            }
            guard
                isUnreserved(byte) || isKeptInPath(byte) || byte == UInt8(ascii: "#")
                    || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            else {
                return "byte \(index + 1) (0x\(String(byte, radix: 16, uppercase: true))) may not stand in a URI"
            }
            index += 1
        }
        return nil
    }

    /// Whether `encode(bytes:_:appendingTo:)` would append `bytes` as they are: every byte one `mode` keeps.
    static func keepsAsIs(_ bytes: UnsafeBufferPointer<UInt8>, _ mode: Mode) -> Bool {
        switch mode {
        case .queryValue: bytes.allSatisfy(isUnreserved)
        case .pathOrQuery: bytes.allSatisfy { isUnreserved($0) || isKeptInPath($0) }
        }
    }

    /// Whether a template's literal text may stand in a URI as it is.
    static func isURICharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let byte = UInt8(scalar.value)
        return isUnreserved(byte) || isKeptInPath(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "#")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// sub-delims, `:`, `@`, `/`, `?`: what RFC 3986 allows in a path or query besides unreserved.
    private static func isKeptInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default: false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
