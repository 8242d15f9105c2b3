/// What the segments of one media playlist measure, as `validate --segments` reports them and the package
/// rules hold the master's variants to: duration, the peak and average segment bit rates as rfc8216bis
/// (section 4.1) defines them, the codecs, picture size and channels found, and each segment's row.
public struct MeasuredPlaylist: Sendable, Equatable, Codable {
    public struct Segment: Sendable, Equatable, Codable {
        public var line: Int
        public var uri: String
        public var duration: Double
        public var bytes: Int
        /// bits per second.
        public var bitRate: Int
        /// What its EXTINF says.
        public var extinf: Double?
    }

    public var segments: [Segment] = []
    /// Segments read, and the bytes read of them (box headers and sample descriptions, or TS ends).
    public var segmentsRead = 0
    /// Segments not measured (missing, malformed, remote, AES-128): the average and an upper bound on the
    /// peak are then unknown.
    public var segmentsNotMeasured = 0
    public var bytesRead = 0
    public var duration: Double = 0
    public var peakBitRate: Int?
    public var averageBitRate: Int?
    public var codecs: [String] = []
    public var width: Int?
    public var height: Int?
    public var channels: Int?
    /// The highest video frame rate of its segments.
    public var frameRate: Double?

    public init() {}

    /// Whether every segment (but gaps) was measured.
    public var isComplete: Bool { segmentsNotMeasured == 0 }

    package mutating func add(_ segment: MeasuredSegment, line: Int, uri: String, extinf: Double?) {
        segmentsRead += 1
        bytesRead += segment.bytesRead
        for codec in segment.codecs where !codecs.contains(codec) { codecs.append(codec) }
        if width == nil, let measured = segment.width { (width, height) = (measured, segment.height) }
        if channels == nil { channels = segment.channels }
        if let rate = segment.frameRate { frameRate = max(frameRate ?? 0, rate) }
        guard let duration = segment.duration, duration > 0 else { return }
        self.duration += duration
        segments.append(
            Segment(
                line: line, uri: uri, duration: duration, bytes: segment.size, bitRate: Self.bitRate(segment.size, duration), extinf: extinf
            ))
    }

    /// The peak and average segment bit rates (rfc8216bis 4.1): the largest bit rate of any contiguous set
    /// of segments lasting between 0.5 and 1.5 times the target duration plus 0.5 s (the largest single
    /// segment's when none does), and all the bytes over the whole duration.
    package mutating func finish(targetDuration: Int?) {
        guard !segments.isEmpty, duration > 0 else { return }
        averageBitRate = Self.bitRate(segments.reduce(0) { $0 + $1.bytes }, duration)
        let target = Double(targetDuration ?? 0)
        var peak: Int?
        if target > 0 {
            for start in segments.indices {
                var bytes = 0
                var seconds = 0.0
                for index in start..<segments.count {
                    bytes += segments[index].bytes
                    seconds += segments[index].duration
                    if seconds > 1.5 * target + 0.5 { break }
                    if seconds >= 0.5 * target { peak = max(peak ?? 0, Self.bitRate(bytes, seconds)) }
                }
            }
        }
        peakBitRate = peak ?? segments.map(\.bitRate).max()
    }

    static func bitRate(_ bytes: Int, _ seconds: Double) -> Int { Int((Double(bytes) * 8 / seconds).rounded()) }
}
