import Glibc
import SKDBytes

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
    /// The name's length, which rules out almost every other name before a byte is compared.
    let nameLength: Int

    public init(_ name: String, _ type: AttributeType, required: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
        self.nameLength = name.utf8.count
    }

    /// Whether `attribute` is this attribute. The name is compared as the literal it was made from, whose
    /// bytes are read in place: a byte array would be retained and released at every comparison, atomic
    /// operations that cost more than the comparison at every attribute of a long playlist.
    @inline(__always)
    func names(_ attribute: AttributeView) -> Bool {
        attribute.span.nameRange.count == nameLength && Bytes.equal(attribute.nameBytes, name)
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
    public static func of(_ name: TagName) -> TagDefinition {
        let bucket = byNameLength[name.rawValue.utf8.count]
        for index in bucket.indices where bucket[index].name == name { return bucket[index] }
        preconditionFailure("no definition of #\(name.rawValue)")  // every name has one: TagParserTests
    }

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
