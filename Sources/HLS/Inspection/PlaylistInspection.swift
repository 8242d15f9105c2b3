/// The typed view of a whole playlist, for `skdpack inspect`: every tag with its typed value, every
/// segment with the keys in force, every variant, and the findings, each with its location.
///
/// Unlike ``PlaylistReader`` this holds the whole playlist in memory: it is for looking at one playlist,
/// not for processing a library.
public struct PlaylistInspection: Codable, Sendable {
    public static let schemaVersion = 1

    public var schemaVersion = PlaylistInspection.schemaVersion
    public var path: String
    public var kind: PlaylistKind
    public var lineCount: Int
    public var tags: [InspectedTag] = []
    public var segments: [InspectedSegment] = []
    public var variants: [InspectedVariant] = []
    public var variables: [String: String] = [:]
    public var diagnostics: [Diagnostic] = []

    public init(path: String, kind: PlaylistKind = .unknown, lineCount: Int = 0) {
        self.path = path
        self.kind = kind
        self.lineCount = lineCount
    }
}

/// One tag line.
public struct InspectedTag: Codable, Sendable {
    public var line: Int
    public var name: String
    /// Whether the tag is one of RFC 8216 / rfc8216bis.
    public var known: Bool
    public var value: InspectedValue?
    /// For attribute lists: each attribute in written order.
    public var attributes: [InspectedAttribute]?
}

/// One attribute with its type and typed value.
public struct InspectedAttribute: Codable, Sendable {
    public var name: String
    public var column: Int
    /// The RFC 8216 type name, or `unspecified` for an attribute the tag does not define.
    public var type: String
    public var value: InspectedValue
}

/// A typed value as JSON can hold it.
public enum InspectedValue: Codable, Sendable, Equatable {
    case integer(UInt64)
    case number(Double)
    case string(String)
    case resolution(width: UInt64, height: UInt64)
    case segmentDuration(duration: Double, title: String)
    case byteRange(length: UInt64, offset: UInt64?)

    private enum CodingKeys: String, CodingKey { case width, height, duration, title, length, offset }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .resolution(let width, let height):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
        case .segmentDuration(let duration, let title):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(duration, forKey: .duration)
            try container.encode(title, forKey: .title)
        case .byteRange(let length, let offset):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(length, forKey: .length)
            try container.encodeIfPresent(offset, forKey: .offset)
        }
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            if let width = try container.decodeIfPresent(UInt64.self, forKey: .width) {
                self = .resolution(width: width, height: try container.decode(UInt64.self, forKey: .height))
            } else if let duration = try container.decodeIfPresent(Double.self, forKey: .duration) {
                self = .segmentDuration(duration: duration, title: try container.decode(String.self, forKey: .title))
            } else {
                self = .byteRange(
                    length: try container.decode(UInt64.self, forKey: .length),
                    offset: try container.decodeIfPresent(UInt64.self, forKey: .offset))
            }
            return
        }
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(UInt64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}

/// One media segment: its URI line and what applies to it.
public struct InspectedSegment: Codable, Sendable {
    public var index: Int
    /// The line of the URI.
    public var line: Int
    public var uri: String
    public var duration: Double?
    public var title: String?
    public var byteRange: InspectedValue?
    public var discontinuity: Bool
    public var map: String?
    /// The keys in force, one per KEYFORMAT; empty for a clear segment.
    public var keys: [KeyInForce]
}

/// One variant stream of a master playlist.
public struct InspectedVariant: Codable, Sendable {
    public var line: Int
    public var stream: VariantStreamTag
}
