import Glibc

/// The variables `EXT-X-DEFINE` declares (rfc8216bis 4.4.2.3), for reading `{$name}` references.
///
/// Substitution is for reading only: what skdpack writes keeps every reference as it was written.
public struct VariableScope: Sendable {
    /// Where a variable's value comes from.
    public enum Definition: Hashable, Sendable {
        /// `NAME` and `VALUE` in this playlist.
        case value(String)
        /// `IMPORT`: the value comes from the master playlist; known only if the caller supplied it.
        case imported(String?)
        /// `QUERYPARAM`: the value comes from the playlist URL's query, unknown when reading a file.
        case queryParameter
    }

    public private(set) var definitions: [String: Definition] = [:]
    /// Values a master playlist defines, for `IMPORT` in its media playlists.
    public var importable: [String: String]

    public init(importable: [String: String] = [:]) { self.importable = importable }

    /// Records one `EXT-X-DEFINE`; returns `false` if the name was already defined.
    @discardableResult
    public mutating func define(from tag: Tag) -> Bool {
        guard tag.name == .define else { return true }
        let name: String
        let definition: Definition
        if let defined = tag.quotedString("NAME") {
            name = defined
            definition = .value(tag.quotedString("VALUE") ?? "")
        } else if let imported = tag.quotedString("IMPORT") {
            name = imported
            definition = .imported(importable[imported])
        } else if let parameter = tag.quotedString("QUERYPARAM") {
            name = parameter
            definition = .queryParameter
        } else {
            return true
        }
        guard definitions[name] == nil else { return false }
        definitions[name] = definition
        return true
    }

    /// The result of substituting references in a value.
    public struct Substitution: Hashable, Sendable {
        /// The text with every known value put in; unknown references are left as written.
        public var text: String
        /// Names referenced without any `EXT-X-DEFINE`.
        public var undefined: [String]
        /// Names defined by `IMPORT` or `QUERYPARAM` whose value is not known here.
        public var unresolved: [String]
    }

    /// Whether `text` holds `{$`, the start of a reference: a byte scan, cheap enough for every value.
    public static func mayReference(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while let base = rest.baseAddress, let brace = memchr(base, 0x7B, rest.count) {
                let next = UnsafeRawPointer(brace) + 1 - base
                if next < rest.count, rest[next] == UInt8(ascii: "$") { return true }
                rest = UnsafeRawBufferPointer(rebasing: rest[next...])
            }
            return false
        }
    }

    /// Replaces each `{$name}` in `text` by its value.
    public func substitute(_ text: String) -> Substitution {
        guard Self.mayReference(text) else { return Substitution(text: text, undefined: [], unresolved: []) }
        var output = ""
        var undefined: [String] = []
        var unresolved: [String] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{$") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            let reference = rest[open.lowerBound...close]
            switch definitions[name] {
            case .value(let value)?, .imported(let value?)?:
                output += value
            case .imported(nil)?, .queryParameter?:
                unresolved.append(name)
                output += reference
            case nil:
                undefined.append(name)
                output += reference
            }
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return Substitution(text: output, undefined: undefined, unresolved: unresolved)
    }
}
