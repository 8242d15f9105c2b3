import HLS

/// What a master playlist declares of its variants and renditions, for the package rules that hold it to
/// the media its playlists measure (`--segments`): BANDWIDTH, AVERAGE-BANDWIDTH, CODECS, RESOLUTION, the
/// audio group, and each rendition's group, URI and CHANNELS.
public struct VariantFacts: Sendable, Equatable {
    public struct Variant: Sendable, Equatable {
        public var line: Int
        public var uri: String
        public var bandwidth: UInt64?
        public var averageBandwidth: UInt64?
        public var codecs: [String]?
        /// CODECS as written.
        public var codecsWritten: String?
        public var resolution: (width: UInt64, height: UInt64)?
        public var audioGroup: String?
        public var frameRate: Double?
        /// FRAME-RATE as written.
        public var frameRateWritten: String?

        public static func == (lhs: Variant, rhs: Variant) -> Bool {
            lhs.line == rhs.line && lhs.uri == rhs.uri && lhs.bandwidth == rhs.bandwidth && lhs.averageBandwidth == rhs.averageBandwidth
                && lhs.codecs == rhs.codecs && lhs.resolution?.width == rhs.resolution?.width
                && lhs.resolution?.height == rhs.resolution?.height && lhs.audioGroup == rhs.audioGroup && lhs.frameRate == rhs.frameRate
        }
    }

    public struct Rendition: Sendable, Equatable {
        public var line: Int
        public var type: String
        public var group: String
        public var name: String?
        public var uri: String?
        public var channels: Int?
    }

    public var variants: [Variant] = []
    public var renditions: [Rendition] = []
    private var pending: Variant?

    public init() {}

    mutating func note(_ tag: Tag, line: Int) {
        switch tag.name {
        case .streamInf:
            var variant = Variant(line: line, uri: "")
            variant.bandwidth = tag.decimalInteger("BANDWIDTH")
            variant.averageBandwidth = tag.decimalInteger("AVERAGE-BANDWIDTH")
            variant.codecsWritten = tag.quotedString("CODECS")
            variant.codecs = tag.quotedString("CODECS")?.split(separator: ",").map { String($0.trimmingPrefix(" ")).lowercased() }
            if case .decimalResolution(let width, let height)? = tag.attributes?["RESOLUTION"]?.typedValue(as: .decimalResolution) {
                variant.resolution = (width, height)
            }
            variant.audioGroup = tag.quotedString("AUDIO")
            variant.frameRate = tag.decimalFloat("FRAME-RATE")
            variant.frameRateWritten = tag.attributes?["FRAME-RATE"]?.text
            pending = variant
        case .media:
            guard let type = tag.unquoted("TYPE"), let group = tag.quotedString("GROUP-ID") else { return }
            renditions.append(
                Rendition(
                    line: line, type: type, group: group, name: tag.quotedString("NAME"), uri: tag.quotedString("URI"),
                    channels: tag.quotedString("CHANNELS").flatMap { Int($0.prefix { $0.isNumber }) }))
        default:
            break
        }
    }

    mutating func noteURI(_ uri: String) {
        guard var variant = pending else { return }
        variant.uri = uri
        variants.append(variant)
        pending = nil
    }
}
