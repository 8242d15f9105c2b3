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
            guard let separator = value.firstRange(of: "://") else { return value }
            let scheme = value[..<separator.lowerBound]
            let isScheme =
                !scheme.isEmpty && scheme.first!.isASCII && scheme.first!.isLetter
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            return isScheme ? String(value[separator.upperBound...]) : value
        }
    }
}
