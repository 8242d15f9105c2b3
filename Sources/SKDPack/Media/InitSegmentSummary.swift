import MP4

/// An init segment's protection as `inspect` and reports show it: plain values (key ids as UUIDs, IVs in
/// hex, the pattern as `crypt:skip`, systems with their names).
public struct InitSegmentSummary: Encodable, Sendable, Equatable {
    public struct Track: Encodable, Sendable, Equatable {
        public var trackID: UInt32?
        public var handler: String
        public var sampleEntry: String
        public var originalFormat: String?
        public var scheme: String?
        public var schemeVersion: String?
        public var defaultKID: String?
        public var perSampleIVSize: UInt8?
        public var constantIV: String?
        public var pattern: String?
        public var piff: Bool?
        public var width: Int?
        public var height: Int?
        public var channels: Int?
        public var timescale: UInt32?
        public var codec: String?
    }

    public struct System: Encodable, Sendable, Equatable {
        public var systemID: String
        public var name: String?
        public var version: UInt8
        public var keyIDs: [String]
        public var piff: Bool?
        public var offset: Int
    }

    public var topLevelBoxes: [String]
    public var tracks: [Track]
    public var protectionSystems: [System]
    public var piffBoxes: [String]?

    public init(_ segment: InitSegment) {
        topLevelBoxes = segment.topLevelBoxes
        tracks = segment.tracks.map { track in
            Track(
                trackID: track.trackID, handler: track.handler.rawValue, sampleEntry: track.sampleEntry,
                originalFormat: track.originalFormat, scheme: track.scheme,
                schemeVersion: track.schemeVersion.map { "0x" + String($0, radix: 16) }, defaultKID: track.defaultKID?.uuid,
                perSampleIVSize: track.perSampleIVSize, constantIV: track.constantIV.map(KeyID.hex),
                pattern: track.pattern.map { "\($0.crypt):\($0.skip)" }, piff: track.isPIFF ? true : nil, width: track.width,
                height: track.height, channels: track.channelCount, timescale: track.timescale, codec: track.codec)
        }
        protectionSystems = segment.protectionSystems.map { system in
            System(
                systemID: system.systemID.uuid, name: ProtectionSystem.name(of: system.systemID), version: system.version,
                keyIDs: system.keyIDs.map(\.uuid), piff: system.isPIFF ? true : nil, offset: system.offset)
        }
        piffBoxes = segment.piffBoxes.isEmpty ? nil : segment.piffBoxes
    }
}
