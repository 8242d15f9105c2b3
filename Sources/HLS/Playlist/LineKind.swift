/// What a line is, decided from its first bytes (RFC 8216 section 4.1).
public enum LineKind: Hashable, Sendable {
    /// Empty, or only spaces and tabs.
    case blank
    /// Starts with `#` but not `#EXT`.
    case comment
    /// Starts with `#EXT`: a known tag, or `nil` for an unknown one.
    case tag(TagName?)
    /// Anything else: a URI.
    case uri

    /// Classifies `content`, a line without its terminator.
    public static func classify(_ content: UnsafeRawBufferPointer) -> LineKind {
        guard let first = content.first else { return .blank }
        if first == UInt8(ascii: "#") {
            guard content.count >= 4, content[1] == UInt8(ascii: "E"), content[2] == UInt8(ascii: "X"),
                content[3] == UInt8(ascii: "T")
            else { return .comment }
            let nameEnd = content.firstIndex(of: UInt8(ascii: ":")) ?? content.count
            return .tag(TagName(bytes: UnsafeRawBufferPointer(rebasing: content[1..<nameEnd])))
        }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            if content.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return .blank }
        }
        return .uri
    }
}
