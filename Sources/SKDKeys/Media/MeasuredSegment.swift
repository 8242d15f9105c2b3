import MP4
import MPEGTS
import SKDBytes

/// What a media segment's own bytes say, as `validate --segments` holds the playlist to it: its duration
/// and first time, whether it starts with a sync sample, whether and under which key ids its samples are
/// encrypted, its codecs, and what it cost to read.
public struct MeasuredSegment: Sendable, Equatable {
    public enum Container: String, Sendable {
        case fragmentedMP4 = "fMP4"
        case transportStream = "MPEG-TS"
    }

    public var container: Container
    /// The segment's bytes, and how many of them were read.
    public var size: Int
    public var bytesRead: Int
    /// Seconds, from the video track (or the first) of the segment.
    public var duration: Double?
    /// Its first decode time (fMP4 `tfdt`) or presentation time (TS), in seconds.
    public var startTime: Double?
    /// Whether its video starts with a sync sample (`nil`: no video, or not known).
    public var startsWithSyncSample: Bool?
    /// Samples protected, of all samples (fMP4); `nil` for TS.
    public var protectedSamples: Int?
    public var samples: Int?
    /// Whether any of its media is encrypted: protected samples (fMP4) or a SAMPLE-AES stream type (TS).
    public var isEncrypted: Bool
    /// The streams left clear in an encrypted segment: TS stream types, or fMP4 tracks, as said in messages.
    public var clearStreams: [String] = []
    /// Why an fMP4 segment's samples are clear, as its boxes say (the sample entry they use, or their
    /// `seig` group).
    public var clearDetail: String?
    /// The key ids of its protected samples (fMP4: `seig` groups, else `tenc`).
    public var keyIDs: [KeyID] = []
    /// The `seig` or `tenc` pattern (crypt:skip blocks) of its protected video and audio samples (fMP4).
    public var videoPattern: (crypt: UInt8, skip: UInt8)?
    public var audioPattern: (crypt: UInt8, skip: UInt8)?
    /// Codecs as `CODECS` writes them, where the media says enough.
    public var codecs: [String] = []
    /// Video frames a second: samples over duration (fMP4), 90 kHz over the shortest step between
    /// presentation times (TS).
    public var frameRate: Double?
    /// Whether its bytes hold a `moov` (a Media Initialization Section).
    public var holdsInitSection = false
    /// The video's picture size (the sample entry's, or the SPS's), and the audio's channel count.
    public var width: Int?
    public var height: Int?
    public var channels: Int?

    public static func == (lhs: MeasuredSegment, rhs: MeasuredSegment) -> Bool {
        lhs.container == rhs.container && lhs.holdsInitSection == rhs.holdsInitSection && lhs.size == rhs.size
            && lhs.bytesRead == rhs.bytesRead && lhs.duration == rhs.duration
            && lhs.startTime == rhs.startTime && lhs.startsWithSyncSample == rhs.startsWithSyncSample
            && lhs.protectedSamples == rhs.protectedSamples && lhs.samples == rhs.samples && lhs.isEncrypted == rhs.isEncrypted
            && lhs.clearStreams == rhs.clearStreams && lhs.clearDetail == rhs.clearDetail && lhs.keyIDs == rhs.keyIDs
            && lhs.videoPattern?.crypt == rhs.videoPattern?.crypt
            && lhs.videoPattern?.skip == rhs.videoPattern?.skip && lhs.audioPattern?.crypt == rhs.audioPattern?.crypt
            && lhs.audioPattern?.skip == rhs.audioPattern?.skip && lhs.codecs == rhs.codecs && lhs.width == rhs.width
            && lhs.height == rhs.height && lhs.channels == rhs.channels && lhs.frameRate == rhs.frameRate
    }

    /// An fMP4 segment's fragments measured with the tracks of `initSegment`.
    public init(_ segment: MediaSegment, initSegment: InitSegment) {
        container = .fragmentedMP4
        holdsInitSection = segment.topLevelBoxes.contains("moov")
        size = segment.size
        bytesRead = segment.bytesRead
        var trackIDs: [UInt32] = []
        for fragment in segment.fragments {
            for run in fragment.tracks where !trackIDs.contains(run.trackID) { trackIDs.append(run.trackID) }
        }
        let entries = { (trackID: UInt32) in initSegment.tracks.filter { $0.trackID == trackID } }
        // The video track times the segment; without video, the first track.
        let timing =
            trackIDs.first { id in entries(id).first?.handler == .video } ?? trackIDs.first
        var protected = 0
        var total = 0
        isEncrypted = false
        for trackID in trackIDs {
            let runs = segment.runs(of: trackID)
            let trackEntries = entries(trackID)
            var trackProtected = 0
            for run in runs {
                let index = Int(run.sampleDescriptionIndex) - 1
                let entry = trackEntries.indices.contains(index) ? trackEntries[index] : trackEntries.first
                let byDefault = entry.map { $0.isEncrypted && $0.isProtected != false } ?? false
                let count = run.protectedSampleCount(trackDefault: byDefault)
                trackProtected += count
                if count == 0, clearDetail == nil, let entry {
                    clearDetail =
                        byDefault
                        ? "the 'seig' groups of track \(trackID) mark its samples clear"
                        : "track \(trackID)'s samples use the clear sample entry '\(entry.sampleEntry)' "
                            + "(sample_description_index \(run.sampleDescriptionIndex))"
                }
                total += run.sampleCount
                for id in run.keyIDs(trackDefault: entry?.defaultKID, trackProtected: byDefault) where !keyIDs.contains(id) {
                    keyIDs.append(id)
                }
                let pattern = run.encryptionGroups.first(where: \.isProtected)?.pattern ?? entry?.pattern
                if entry?.handler == .video, count > 0, videoPattern == nil { videoPattern = pattern }
                if entry?.handler == .audio, count > 0, audioPattern == nil { audioPattern = pattern }
                if let codec = entry?.codec, !codecs.contains(codec) { codecs.append(codec) }
                if entry?.handler == .video, width == nil { (width, height) = (entry?.width, entry?.height) }
                if entry?.handler == .audio, channels == nil { channels = entry?.channelCount }
            }
            protected += trackProtected
            if trackProtected == 0, let entry = trackEntries.first {
                clearStreams.append("track \(trackID) (\(entry.handler.rawValue))")
            }
            guard trackID == timing, let timescale = trackEntries.first?.timescale, timescale > 0 else { continue }
            let ticks = runs.reduce(UInt64(0)) { $0 + ($1.duration ?? 0) }
            duration = Double(ticks) / Double(timescale)
            startTime = runs.first?.baseMediaDecodeTime.map { Double($0) / Double(timescale) }
            if trackEntries.first?.handler == .video {
                startsWithSyncSample = runs.first?.startsWithSyncSample
                let samples = runs.reduce(0) { $0 + $1.sampleCount }
                if ticks > 0, samples > 1 { frameRate = Double(samples) * Double(timescale) / Double(ticks) }
            }
        }
        protectedSamples = protected
        samples = total
        isEncrypted = protected > 0
        if !isEncrypted { clearStreams = [] } else { clearDetail = nil }
    }

    /// A transport stream segment.
    public init(_ segment: TransportSegment) {
        container = .transportStream
        size = segment.size
        bytesRead = segment.bytesRead
        duration = segment.duration
        let timing = segment.video ?? segment.streams.first { $0.firstPTS != nil }
        startTime = timing?.firstPTS.map { Double($0) / 90_000 }
        startsWithSyncSample = segment.video?.startsWithSyncSample
        let media = segment.streams.filter { $0.kind != .other }
        isEncrypted = media.contains(where: \.isSampleAESType)
        clearStreams =
            isEncrypted ? media.filter { !$0.isSampleAESType }.map { "PID \($0.pid) (stream type 0x\(Self.hex($0.streamType)))" } : []
        codecs = media.compactMap(\.codec)
        frameRate = segment.video?.frameDuration.flatMap { $0 > 0 ? 90_000 / Double($0) : nil }
        width = segment.video?.sequenceParameters?.width
        height = segment.video?.sequenceParameters?.height
        channels = segment.audio?.adts?.channels
    }

    static func hex(_ byte: UInt8) -> String { Hex.string([byte], uppercase: true) }
}
