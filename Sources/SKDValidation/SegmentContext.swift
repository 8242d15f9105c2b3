import HLS
import MP4
import MPEGTS
import SKDKeys

/// What `validate --segments` knows of one playlist's media segments while it streams: the tags that
/// describe the next segment (EXTINF, BYTERANGE, DISCONTINUITY, GAP), and each segment read once, at its
/// URI line, for all the `SEG` rules that look at it; the durations and sizes measured so far.
final class SegmentContext {
    /// What became of the segment of a URI line.
    enum Reading {
        /// Read: what its bytes say.
        case measured(MeasuredSegment)
        /// A URI with a scheme, or root-relative: not a file here.
        case remote(String)
        /// Not read, and why (a gap, a whole-segment AES-128 encryption, an init segment that is unreadable).
        case skipped(String)
        case failed(String)
    }

    /// The segment of the URI line at hand and the tags before it.
    struct Segment {
        var line: Int
        var uri: String
        var extinf: Double?
        var discontinuity: Bool
        var reading: Reading
    }

    private let path: String
    private(set) var targetDuration: Int?
    private(set) var independentSegments = false
    /// EXT-X-I-FRAMES-ONLY: each segment is one I-frame, its EXTINF the time to the next.
    private(set) var iFramesOnly = false
    private var extinf: Double?
    private var byteRange: ByteRange?
    private var discontinuity = false
    private var gap = false
    /// Where the last byte range of each file ended: an EXT-X-BYTERANGE without an offset continues it.
    private var rangeEnds: [String: Int] = [:]
    private var current: Segment?
    /// What the segments read so far measure.
    private(set) var measured = MeasuredPlaylist()
    /// The segment before the one at hand, for continuity.
    private(set) var previous: Segment?

    init(path: String) { self.path = path }

    /// The playlist's measures, once every segment is read.
    func summary() -> MeasuredPlaylist {
        var summary = measured
        summary.finish(targetDuration: targetDuration)
        return summary
    }

    /// Notes what a tag says of the next segment.
    func note(_ tag: Tag) {
        switch (tag.name, tag.value) {
        case (.extInf, .segmentDuration(let duration, _)): extinf = duration
        case (.byteRange, .byteRange(let length, let offset)):
            byteRange = ByteRange(length: Int(clamping: length), offset: offset.map { Int(clamping: $0) } ?? -1)
        case (.discontinuity, _): discontinuity = true
        case (.gap, _): gap = true
        case (.targetDuration, .decimalInteger(let seconds)): targetDuration = Int(clamping: seconds)
        case (.independentSegments, _): independentSegments = true
        case (.iFramesOnly, _): iFramesOnly = true
        default: break
        }
    }

    /// The segment of the URI `line`, read once for every rule (with `map`, the init segment in force,
    /// and `keys`, the keys in force).
    func segment(at line: PlaylistLine, uri: String, map: KeyTruthContext.InitSegmentState, keys: KeyPeriodView) -> Segment {
        if let current, current.line == line.raw.number { return current }
        previous = current
        var range = byteRange
        let file = InitSegmentStore.localPath(of: uri, inPlaylistAt: path)
        if var known = range, known.offset < 0 {
            known.offset = file.flatMap { rangeEnds[$0] } ?? 0
            range = known
        }
        if let file, let range { rangeEnds[file] = range.offset + range.length }
        let reading: Reading
        if gap {
            reading = .skipped("an EXT-X-GAP segment")
        } else if let file {
            reading = Self.read(file, range: range, map: map, keys: keys, iFrame: iFramesOnly)
        } else {
            reading = .remote(uri)
        }
        switch reading {
        case .measured(let segment): measured.add(segment, line: line.raw.number, uri: uri, extinf: extinf)
        case .skipped where gap: break
        default: measured.segmentsNotMeasured += 1
        }
        let segment = Segment(line: line.raw.number, uri: uri, extinf: extinf, discontinuity: discontinuity, reading: reading)
        current = segment
        (extinf, byteRange, discontinuity, gap) = (nil, nil, false, false)
        return segment
    }

    /// Reads the segment at `file`: MPEG-TS when it starts with a sync byte, else fMP4 with the init segment
    /// in force.
    private static func read(
        _ file: String, range: ByteRange?, map: KeyTruthContext.InitSegmentState, keys: KeyPeriodView, iFrame: Bool
    ) -> Reading {
        if keys.encrypting.contains(where: { $0.method == "AES-128" }) {
            return .skipped("encrypted whole with AES-128 (its bytes are not media until decrypted)")
        }
        let span = range.map { (length: $0.length, offset: $0.offset) }
        // MPEG-TS by its bytes (a TS segment under an EXT-X-MAP of fMP4 is a change of format, not an fMP4
        // segment that does not parse), fMP4 with the init segment in force.
        if InitSegmentSniffer.startsTransportStream(file, at: range?.offset ?? 0) || map.isNone {
            if iFrame { return .skipped("an I-frame segment of MPEG-TS (its PAT and PMT are elsewhere in the resource)") }
            do {
                return .measured(MeasuredSegment(try TransportSegmentFile.read(file, range: span)))
            } catch {
                return .failed(error.description)
            }
        }
        guard case .read(let initSegment, _) = map else { return .skipped("its init segment cannot be read here") }
        do {
            let segment = try MediaSegmentFile.read(file, range: span, defaults: initSegment.fragmentDefaults)
            return .measured(MeasuredSegment(segment, initSegment: initSegment))
        } catch {
            return .failed(error.description)
        }
    }
}
