import MP4
import MPEGTS

/// A media segment as `inspect` shows it: what was read of its boxes (fMP4) or packets (MPEG-TS), plain
/// values only (key ids as UUIDs, times in seconds where the timescale is known), and what `validate
/// --segments` measures of it.
public struct MediaSegmentSummary: Encodable, Sendable {
    public struct Run: Encodable, Sendable {
        public var trackID: UInt32
        public var sampleDescriptionIndex: UInt32
        public var baseMediaDecodeTime: UInt64?
        public var samples: Int
        /// In the track's timescale, and in seconds when the init segment gives the timescale.
        public var duration: UInt64?
        public var seconds: Double?
        public var dataSize: Int?
        public var startsWithSyncSample: Bool?
        public var sencSamples: Int?
        public var subsamples: Bool?
        public var auxiliaryInfoSamples: Int?
        public var seig: [Group]?
        public var protectedSamples: Int?
    }

    public struct Group: Encodable, Sendable {
        public var kid: String
        public var isProtected: Bool
        public var pattern: String
        public var perSampleIVSize: UInt8
    }

    public struct Fragment: Encodable, Sendable {
        public var offset: Int
        public var sequenceNumber: UInt32?
        public var tracks: [Run]
    }

    public struct Stream: Encodable, Sendable {
        public var pid: UInt16
        public var streamType: String
        public var kind: String
        public var privateDataIndicator: String?
        public var registrations: [String]?
        public var firstPTS: UInt64?
        public var lastPTS: UInt64?
        public var firstNALUnitTypes: [UInt8]?
        public var startsWithSyncSample: Bool?
        public var codec: String?
        public var width: Int?
        public var height: Int?
        public var channels: Int?
        public var sampleRate: Int?
    }

    /// What `validate --segments` measures: duration, encryption, key ids, codecs.
    public struct Measured: Encodable, Sendable {
        public var duration: Double?
        public var startTime: Double?
        public var startsWithSyncSample: Bool?
        public var encrypted: Bool
        public var protectedSamples: Int?
        public var samples: Int?
        public var keyIDs: [String]
        public var codecs: [String]
        public var clearStreams: [String]?
    }

    public var container: String
    public var size: Int
    public var bytesRead: Int
    public var topLevelBoxes: [String]?
    public var fragments: [Fragment]?
    public var streams: [Stream]?
    public var syncLosses: [Int]?
    public var continuityErrors: Int?
    public var measured: Measured?
    /// Why something is missing (an fMP4 fragment inspected without its init segment).
    public var note: String?

    /// An fMP4 segment, with its init segment's timescales, sample entries and defaults when known.
    public init(_ segment: MediaSegment, initSegment: InitSegment?) {
        container = MeasuredSegment.Container.fragmentedMP4.rawValue
        size = segment.size
        bytesRead = segment.bytesRead
        topLevelBoxes = segment.topLevelBoxes
        fragments = segment.fragments.map { fragment in
            Fragment(
                offset: fragment.offset, sequenceNumber: fragment.sequenceNumber,
                tracks: fragment.tracks.map { run in
                    let entries = initSegment?.tracks.filter { $0.trackID == run.trackID } ?? []
                    let index = Int(run.sampleDescriptionIndex) - 1
                    let entry = entries.indices.contains(index) ? entries[index] : entries.first
                    let timescale = entry?.timescale
                    return Run(
                        trackID: run.trackID, sampleDescriptionIndex: run.sampleDescriptionIndex,
                        baseMediaDecodeTime: run.baseMediaDecodeTime, samples: run.sampleCount, duration: run.duration,
                        seconds: timescale.flatMap { scale in run.duration.map { Double($0) / Double(scale) } }, dataSize: run.dataSize,
                        startsWithSyncSample: run.startsWithSyncSample, sencSamples: run.sampleEncryption?.sampleCount,
                        subsamples: run.sampleEncryption?.hasSubsamples, auxiliaryInfoSamples: run.auxiliaryInfoCount,
                        seig: run.encryptionGroups.isEmpty
                            ? nil
                            : run.encryptionGroups.map {
                                Group(
                                    kid: $0.keyID.uuid, isProtected: $0.isProtected, pattern: "\($0.pattern.crypt):\($0.pattern.skip)",
                                    perSampleIVSize: $0.perSampleIVSize)
                            },
                        protectedSamples: entry.map { run.protectedSampleCount(trackDefault: $0.isEncrypted && $0.isProtected != false) })
                })
        }
        measured = initSegment.map { Measured(MeasuredSegment(segment, initSegment: $0)) }
        if initSegment == nil {
            note = "no init segment given: durations are in the track's timescale, and encryption and codecs are not measured"
        }
    }

    /// A transport stream segment.
    public init(_ segment: TransportSegment) {
        container = MeasuredSegment.Container.transportStream.rawValue
        size = segment.size
        bytesRead = segment.bytesRead
        streams = segment.streams.map { stream in
            Stream(
                pid: stream.pid, streamType: "0x" + MeasuredSegment.hex(stream.streamType), kind: stream.kind.rawValue,
                privateDataIndicator: stream.privateDataIndicator, registrations: stream.registrations.isEmpty ? nil : stream.registrations,
                firstPTS: stream.firstPTS, lastPTS: stream.lastPTS,
                firstNALUnitTypes: stream.firstNALUnitTypes.isEmpty ? nil : stream.firstNALUnitTypes,
                startsWithSyncSample: stream.startsWithSyncSample, codec: stream.codec, width: stream.sequenceParameters?.width,
                height: stream.sequenceParameters?.height, channels: stream.adts?.channels, sampleRate: stream.adts?.samplingFrequency)
        }
        syncLosses = segment.syncLosses.isEmpty ? nil : segment.syncLosses
        continuityErrors = segment.continuityErrors.isEmpty ? nil : segment.continuityErrors.count
        measured = Measured(MeasuredSegment(segment))
    }
}

extension MediaSegmentSummary.Measured {
    init(_ measured: MeasuredSegment) {
        duration = measured.duration
        startTime = measured.startTime
        startsWithSyncSample = measured.startsWithSyncSample
        encrypted = measured.isEncrypted
        protectedSamples = measured.protectedSamples
        samples = measured.samples
        keyIDs = measured.keyIDs.map(\.uuid)
        codecs = measured.codecs
        clearStreams = measured.clearStreams.isEmpty ? nil : measured.clearStreams
    }
}
