import Glibc

/// Where a tag may appear (RFC 8216 sections 4.3.1 to 4.3.5).
public enum TagScope: String, Sendable, Codable {
    case basic
    case mediaSegment = "media-segment"
    case mediaPlaylist = "media-playlist"
    case masterPlaylist = "master-playlist"
    case either
}

/// The grammar of what follows `#TAG:`.
public enum TagValueGrammar: Sendable {
    /// The tag takes no value.
    case none
    case decimalInteger
    /// `EXTINF:<duration>,[<title>]`
    case segmentDuration
    /// `<n>[@<o>]`
    case byteRange
    /// An ISO 8601 date-time.
    case dateTime
    case enumerated([String])
    case attributeList([AttributeSpec])
}

/// An attribute a tag defines: its type, and whether the tag requires it.
public struct AttributeSpec: Sendable {
    public let name: String
    public let type: AttributeType
    public let required: Bool
    /// The name's bytes, for matching attributes without going through `String`.
    let nameBytes: [UInt8]

    public init(_ name: String, _ type: AttributeType, required: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
        self.nameBytes = Array(name.utf8)
    }

    /// Whether `attribute` is this attribute: lengths first, which rules out almost every other name.
    @inline(__always)
    func names(_ attribute: AttributeView) -> Bool {
        let bytes = attribute.nameBytes
        guard bytes.count == nameBytes.count else { return false }
        return nameBytes.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }
}

/// What the protocol says about one tag: its value grammar and section (scope and repetition are on
/// ``TagName``, where the reader's hot path reaches them without a lookup).
public struct TagDefinition: Sendable {
    public let name: TagName
    public let grammar: TagValueGrammar
    public let specSection: String

    public var scope: TagScope { name.scope }
    public var appearsOnce: Bool { name.appearsOnce }

    /// The definition of `name`.
    public static func of(_ name: TagName) -> TagDefinition { table[name]! }

    /// The spec of attribute `attribute` of this tag, if the tag defines it.
    public func spec(of attribute: String) -> AttributeSpec? {
        guard case .attributeList(let specs) = grammar else { return nil }
        return specs.first { $0.name == attribute }
    }

    /// The spec of `attribute`, matched by its name's bytes.
    public func spec(for attribute: Attribute) -> AttributeSpec? {
        guard case .attributeList(let specs) = grammar else { return nil }
        return specs.first { attribute.isNamed($0.name) }
    }
}
