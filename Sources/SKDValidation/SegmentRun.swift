import Glibc
import HLS

/// The lines of a run the reader read at once (``PlaylistReader/nextItem()``), as the segment rules see
/// them: each `EXTINF` with its duration (read as the tag parser reads it) and each segment's URI line, in
/// order; the comments and blank lines between are no one's. The reader takes into a run only what it
/// found well formed (an `EXTINF` whose duration reads, a segment's URI, clean ASCII, no `{$`): a rule reads a
/// duration here where the line-by-line path builds a typed tag of each `EXTINF`, and is called once a run
/// where that path calls it twice a segment.
///
/// A run may start with a URI whose `EXTINF` was read on its own (a tag stood between them) and end with an
/// `EXTINF` whose URI comes after it. Valid while the run's bytes are (until the next read).
struct SegmentRun {
    enum Event {
        /// An `EXTINF` line and its duration (`nil`: no number, as the tag parser reads it).
        case extInf(RawLine, duration: Double?)
        /// A segment's URI line, and the segment's 0-based index in the playlist.
        case uri(RawLine, index: Int)
    }

    private(set) var events: [Event] = []
    /// The longest duration of the run's `EXTINF`s (zero: none has one): a rule that judges durations
    /// against a bound asks this first, and reads each only when it is over.
    private(set) var longest = 0.0
    /// Whether a space is anywhere in the run's bytes (a title, a URI): where none is, no URI has one.
    private(set) var holdsSpace = false
    /// The line of the run's first segment URI, if it has one.
    private(set) var firstURILine: Int?

    /// Reads `run`, after which the playlist has `segmentCount` segments (the run's last among them).
    mutating func read(_ run: LineRun, segmentCount: Int) {
        events.removeAll(keepingCapacity: true)
        (longest, holdsSpace, firstURILine) = (0, false, nil)
        guard let base = run.bytes.baseAddress else { return }
        holdsSpace = memchr(base, 0x20, run.bytes.count) != nil
        var start = 0
        var number = run.firstLine
        var uris = 0
        while start < run.bytes.count {
            // Every line of a run ends in a line feed (a last line without one is read on its own).
            let newline = base.distance(to: memchr(base + start, 0x0A, run.bytes.count - start)!)
            let crlf = newline > start && run.bytes[newline - 1] == 0x0D
            let content = UnsafeRawBufferPointer(rebasing: run.bytes[start..<(crlf ? newline - 1 : newline)])
            let line = RawLine(number: number, offset: run.offset + start, content: content, terminator: crlf ? .crlf : .lf, part: .whole)
            if let first = content.first {
                if first != UInt8(ascii: "#") {
                    if uris == 0 { firstURILine = number }
                    events.append(.uri(line, index: uris))
                    uris += 1
                } else if content.count >= 8, content.loadUnaligned(as: UInt64.self) == TagParser.extInfPrefix {
                    // (A comment of a run starts with `#` too.)
                    let duration = TagParser.segmentDuration(UnsafeRawBufferPointer(rebasing: content[8...]))
                    if let duration, duration > longest { longest = duration }
                    events.append(.extInf(line, duration: duration))
                }
            }
            start = newline + 1
            number += 1
        }
        // Each URI's index in the playlist: those before the run, then its own.
        let before = segmentCount - uris
        for index in events.indices {
            if case .uri(let line, let offset) = events[index] { events[index] = .uri(line, index: before + offset) }
        }
    }

}

extension SegmentRun.Event {
    /// The line as the line-by-line path hands it out.
    var line: PlaylistLine {
        switch self {
        case .extInf(let raw, _): PlaylistLine(raw: raw, kind: .tag(.extInf))
        case .uri(let raw, let index): PlaylistLine(raw: raw, kind: .uri, uriRole: .segment(index: index))
        }
    }
}
