import SKDBytes

/// What an MPEG-2 transport stream segment (ISO/IEC 13818-1) says of its streams, read from its start and
/// its end: the program's stream types and descriptors (with those of Apple's MPEG-2 Stream Encryption
/// Format for HLS: `zavc`, `aacd`, `ac3d`, `ec3d` and the `apad` audio setup), each stream's first and
/// last presentation times, how the first video access unit starts (its NAL unit types, which stay clear
/// under SAMPLE-AES, and its SPS), and ADTS audio's setup; packets out of sync and continuity errors in what
/// was read.
public struct TransportSegment: Sendable, Equatable {
    /// The segment's size in bytes, and how many of them were read.
    public var size = 0
    public var bytesRead = 0
    /// The PID of the PMT the PAT names (the first program's).
    public var pmtPID: UInt16?
    public var streams: [ElementaryStream] = []
    /// Offsets (from the segment's start) where a packet did not start with 0x47.
    public var syncLosses: [Int] = []
    /// Packets whose continuity_counter skips, by offset and PID.
    public var continuityErrors: [ContinuityError] = []

    public init() {}

    /// The first video stream, the first audio stream.
    public var video: ElementaryStream? { streams.first { $0.kind == .video } }
    public var audio: ElementaryStream? { streams.first { $0.kind == .audio } }

    /// The segment's duration in seconds: its video's (or, without video, its first stream's) first
    /// presentation time to its last plus one frame; `nil` without two timestamps.
    public var duration: Double? {
        let stream = video ?? streams.first { $0.firstPTS != nil }
        guard let stream, let first = stream.firstPTS, let last = stream.lastPTS else { return nil }
        return Double(PresentationTime.distance(from: first, to: last) + (stream.frameDuration ?? 0)) / 90_000
    }
}

public struct ContinuityError: Sendable, Equatable {
    public var offset: Int
    public var pid: UInt16
    public var expected: UInt8
    public var found: UInt8
}

/// One elementary stream of the PMT, and what its PES packets say.
public struct ElementaryStream: Sendable, Equatable {
    public enum Kind: String, Sendable { case video, audio, other }

    public var pid: UInt16
    /// `stream_type` as the PMT writes it (0x1B H.264, 0x24 HEVC, 0x0F AAC, 0x81 AC-3, 0x87 E-AC-3; under
    /// SAMPLE-AES 0xDB, 0xCF, 0xC1, 0xC2).
    public var streamType: UInt8
    /// The four characters of its `private_data_indicator_descriptor` (tag 0x0F), if it has one.
    public var privateDataIndicator: String?
    /// The format identifier of each registration descriptor (tag 0x05): `apad` carries the audio setup.
    public var registrations: [String] = []
    /// The earliest and the latest PTS read (the start and the end of the segment), in 90 kHz ticks (33 bits).
    public var firstPTS: UInt64?
    public var lastPTS: UInt64?
    /// The shortest positive distance between the presentation times read: a frame's duration.
    public var frameDuration: UInt64?
    /// The NAL unit types of the first video access unit, in order (H.264: 9 AUD, 7 SPS, 8 PPS, 5 IDR, 1
    /// non-IDR; HEVC's in its own numbering).
    public var firstNALUnitTypes: [UInt8] = []
    /// H.264's first SPS: profile_idc, constraint flags and level_idc (RFC 6381's `avc1.PPCCLL`), and the
    /// picture's size; `nil` if none was read (or it is encrypted beyond its header).
    public var sequenceParameters: SequenceParameters?
    /// ADTS's first frame header: object type (profile + 1), sampling frequency and channels.
    public var adts: ADTSHeader?

    public init(pid: UInt16, streamType: UInt8) {
        self.pid = pid
        self.streamType = streamType
    }

    public var kind: Kind {
        switch streamType {
        case 0x01, 0x02, 0x10, 0x1B, 0x24, 0xDB: .video
        case 0x03, 0x04, 0x0F, 0x11, 0x81, 0x87, 0xCF, 0xC1, 0xC2: .audio
        default: .other
        }
    }

    /// Whether the stream type is one Apple's MPEG-2 Stream Encryption Format gives encrypted streams.
    public var isSampleAESType: Bool { [0xDB, 0xCF, 0xC1, 0xC2].contains(streamType) }

    /// Whether the first access unit starts with a sync picture: an H.264 IDR slice (5) before any other
    /// slice (1), or an HEVC IRAP (16–23).
    public var startsWithSyncSample: Bool? {
        guard kind == .video, !firstNALUnitTypes.isEmpty else { return nil }
        if streamType == 0x24 { return firstNALUnitTypes.contains { (16...23).contains($0) } }
        for type in firstNALUnitTypes {
            if type == 5 { return true }
            if type == 1 { return false }
        }
        return false
    }

    /// The codec as `CODECS` writes it, where the stream says enough.
    public var codec: String? {
        switch streamType {
        case 0x1B, 0xDB: sequenceParameters.map { "avc1." + $0.codecSuffix }
        case 0x0F, 0xCF: adts.map { "mp4a.40.\($0.objectType)" } ?? "mp4a.40"
        case 0x81, 0xC1: "ac-3"
        case 0x87, 0xC2: "ec-3"
        default: nil
        }
    }
}

public struct SequenceParameters: Sendable, Equatable {
    public var profile: UInt8
    public var constraints: UInt8
    public var level: UInt8
    public var width: Int?
    public var height: Int?

    var codecSuffix: String {
        Hex.string([profile, constraints, level])
    }
}

public struct ADTSHeader: Sendable, Equatable {
    /// MPEG-4 audio object type: the ADTS profile plus one (2: AAC LC).
    public var objectType: Int
    public var samplingFrequency: Int?
    public var channels: Int
}

/// 33-bit presentation times, which wrap.
enum PresentationTime {
    static let modulus: UInt64 = 1 << 33

    /// Ticks from `first` to `last`, across one wrap.
    static func distance(from first: UInt64, to last: UInt64) -> UInt64 {
        last >= first ? last - first : last + modulus - first
    }

    /// Ticks from `reference` to `time`, negative when `time` is the earlier (within half the range).
    static func offset(from reference: UInt64, to time: UInt64) -> Int64 {
        let forward = Int64(distance(from: reference, to: time))
        return forward > Int64(modulus / 2) ? forward - Int64(modulus) : forward
    }

    /// `reference` moved by `offset` ticks, wrapped into 33 bits.
    static func adding(_ offset: Int64, to reference: UInt64) -> UInt64 {
        UInt64((Int64(reference) + offset + Int64(modulus)) % Int64(modulus))
    }
}
