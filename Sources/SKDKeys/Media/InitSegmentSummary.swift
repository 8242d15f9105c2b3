import MP4

/// An init segment's protection as `inspect` and reports show it: plain values (key ids as UUIDs, IVs in
/// hex, the pattern as `crypt:skip`, systems with their names).
public struct InitSegmentSummary: Encodable, Sendable, Equatable {
    /// One `trak`: its id, handler and timescale, and its sample entries (an encrypted track often has two:
    /// `encv` and the clear `avc1` of its clear lead).
    public struct Track: Encodable, Sendable, Equatable {
        public var trackID: UInt32?
        public var handler: String
        public var timescale: UInt32?
        public var sampleEntries: [SampleEntry]
    }

    /// One sample entry of a track's `stsd`, in order (its sample_description_index is its place, from 1).
    public struct SampleEntry: Encodable, Sendable, Equatable {
        public var format: String
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
        // The reader gives a sample entry at a time, each with its track's id: the entries of one `trak` are
        // consecutive.
        tracks = []
        for track in segment.tracks {
            let entry = SampleEntry(
                format: track.sampleEntry, originalFormat: track.originalFormat, scheme: track.scheme,
                schemeVersion: track.schemeVersion.map { "0x" + String($0, radix: 16) }, defaultKID: track.defaultKID?.uuid,
                perSampleIVSize: track.perSampleIVSize, constantIV: track.constantIV.map(KeyID.hex),
                pattern: track.pattern.map { "\($0.crypt):\($0.skip)" }, piff: track.isPIFF ? true : nil, width: track.width,
                height: track.height, channels: track.channelCount, codec: track.codec)
            if let last = tracks.last, last.trackID != nil, last.trackID == track.trackID {
                tracks[tracks.count - 1].sampleEntries.append(entry)
            } else {
                tracks.append(
                    Track(trackID: track.trackID, handler: track.handler.rawValue, timescale: track.timescale, sampleEntries: [entry]))
            }
        }
        protectionSystems = segment.protectionSystems.map { system in
            System(
                systemID: system.systemID.uuid, name: ProtectionSystem.name(of: system.systemID), version: system.version,
                keyIDs: system.keyIDs.map(\.uuid), piff: system.isPIFF ? true : nil, offset: system.offset)
        }
        piffBoxes = segment.piffBoxes.isEmpty ? nil : segment.piffBoxes
    }
}
