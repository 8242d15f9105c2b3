/// A transformation applied to a variable's value before it goes into a URI: `{name|filter}`.
public enum TemplateFilter: String, Hashable, Sendable, CaseIterable {
    /// Percent-encode as a query value: everything but RFC 3986 unreserved characters.
    case url
    /// Drop a leading `scheme://`: `https://lic.example.com/fps` becomes `lic.example.com/fps`.
    case stripScheme = "strip_scheme"
    case lower
    case upper

    /// `value` transformed. (Percent-encoding for ``url`` happens at render time, where the renderer knows
    /// that the value is already encoded and must not be encoded again.)
    func apply(to value: String) -> String {
        switch self {
        case .url: return value
        case .lower: return value.lowercased()
        case .upper: return value.uppercased()
        case .stripScheme:
            // On the UTF-8 bytes: a scheme is ASCII, and a renderer runs this once per key period.
            let utf8 = value.utf8
            guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
                utf8[colon...].starts(with: "://".utf8)
            else { return value }
            let scheme = utf8[..<colon]
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
            let isScheme =
                scheme.first.map(isLetter) == true
                && scheme.allSatisfy { isLetter($0) || $0 &- UInt8(ascii: "0") < 10 || "+-.".utf8.contains($0) }
            return isScheme ? String(value[utf8.index(colon, offsetBy: 3)...]) : value
        }
    }
}
