import Glibc

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
        guard !content.isEmpty else { return .blank }
        let first = content.load(as: UInt8.self)
        if first == UInt8(ascii: "#") {
            guard content.count >= 4, content[1] == UInt8(ascii: "E"), content[2] == UInt8(ascii: "X"),
                content[3] == UInt8(ascii: "T")
            else { return .comment }
            let nameEnd = content.firstOffset(of: UInt8(ascii: ":")) ?? content.count
            return .tag(TagName(bytes: UnsafeRawBufferPointer(rebasing: content[1..<nameEnd])))
        }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            if content.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return .blank }
        }
        return .uri
    }
}

extension UnsafeRawBufferPointer {
    /// The offset of the first `byte`, found with `memchr`.
    @inline(__always)
    func firstOffset(of byte: UInt8) -> Int? {
        guard let base = baseAddress, let found = memchr(base, Int32(byte), count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
