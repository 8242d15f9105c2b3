/// The typed view of `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` (RFC 8216 4.3.4.2 and 4.3.4.3).
public struct VariantStreamTag: Hashable, Sendable, Codable {
    public var isIFrameOnly: Bool
    public var bandwidth: UInt64?
    public var averageBandwidth: UInt64?
    public var codecs: String?
    public var resolution: String?
    public var frameRate: Double?
    public var audio: String?
    public var video: String?
    public var subtitles: String?
    /// The playlist's URI: the attribute of an I-frame variant; for `EXT-X-STREAM-INF`, the next URI line,
    /// which the reader fills in.
    public var uri: String?

    public init?(_ tag: Tag) {
        guard tag.name == .streamInf || tag.name == .iFrameStreamInf else { return nil }
        isIFrameOnly = tag.name == .iFrameStreamInf
        bandwidth = tag.decimalInteger("BANDWIDTH")
        averageBandwidth = tag.decimalInteger("AVERAGE-BANDWIDTH")
        codecs = tag.quotedString("CODECS")
        resolution = tag.unquoted("RESOLUTION")
        frameRate = tag.decimalFloat("FRAME-RATE")
        audio = tag.quotedString("AUDIO")
        video = tag.quotedString("VIDEO")
        subtitles = tag.quotedString("SUBTITLES")
        uri = isIFrameOnly ? tag.quotedString("URI") : nil
    }
}

/// The typed view of `EXT-X-MEDIA` (RFC 8216 4.3.4.1): an alternative rendition.
public struct RenditionTag: Hashable, Sendable, Codable {
    /// `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
    public var type: String
    public var groupID: String
    public var name: String
    public var language: String?
    /// The rendition's playlist; absent for closed captions and for renditions muxed into the variant.
    public var uri: String?
    public var isDefault: Bool
    public var autoselect: Bool

    public init?(_ tag: Tag) {
        guard tag.name == .media else { return nil }
        type = tag.unquoted("TYPE") ?? ""
        groupID = tag.quotedString("GROUP-ID") ?? ""
        name = tag.quotedString("NAME") ?? ""
        language = tag.quotedString("LANGUAGE")
        uri = tag.quotedString("URI")
        isDefault = tag.unquoted("DEFAULT") == "YES"
        autoselect = tag.unquoted("AUTOSELECT") == "YES"
    }
}

/// The typed view of `EXT-X-MAP` (RFC 8216 4.3.2.5): the media initialization section.
public struct MapTag: Hashable, Sendable, Codable {
    public var uri: String
    public var byteRange: String?

    public init?(_ tag: Tag) {
        guard tag.name == .map, let uri = tag.quotedString("URI") else { return nil }
        self.uri = uri
        byteRange = tag.quotedString("BYTERANGE")
    }
}
