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

    /// The run's lines, and the number of the playlist's segments before it.
    private var lines: LineRun?
    private var segmentsBefore = 0
    /// The longest duration of the run's `EXTINF`s (zero: none has one): a rule that judges durations
    /// against a bound asks this first, and reads each only when it is over.
    private(set) var longest = 0.0
    /// Whether a space is anywhere in the run's bytes (a title, a URI): where none is, no URI has one.
    private(set) var holdsSpace = false
    /// The line of the run's first segment URI, if it has one.
    private(set) var firstURILine: Int?
    /// How many `EXTINF`s the run has, and the sum of their durations (those that read).
    private(set) var extInfCount = 0
    private(set) var totalDuration = DurationSum()
    /// The run's last `EXTINF` or URI.
    private(set) var last: Event?

    /// Reads `run`, after which the playlist has `segmentCount` segments (the run's last among them): what
    /// the rules ask of every run is noted; each line is read again only for a rule that asks for it
    /// (``forEachEvent(_:)``), as few do (a date before the run, a duration over the target, a space).
    mutating func read(_ run: LineRun, segmentCount: Int) {
        lines = run
        (longest, holdsSpace, firstURILine, extInfCount, totalDuration, last) = (0, false, nil, 0, DurationSum(), nil)
        guard let base = run.bytes.baseAddress else { return }
        holdsSpace = memchr(base, 0x20, run.bytes.count) != nil
        var uris = 0
        var last: Event?
        Self.walk(run, segmentsBefore: 0) { event in
            switch event {
            case .uri(let line, _):
                if uris == 0 { firstURILine = line.number }
                uris += 1
            case .extInf(_, let duration):
                extInfCount += 1
                if let duration {
                    totalDuration.add(duration)
                    if duration > longest { longest = duration }
                }
            }
            last = event
            return true
        }
        segmentsBefore = segmentCount - uris
        // (The last URI's index counted from the playlist's start.)
        if case .uri(let line, let index)? = last { last = .uri(line, index: segmentsBefore + index) }
        self.last = last
    }

    /// `body` with each `EXTINF` and URI of the run, in order, until it returns `false`.
    func forEachEvent(_ body: (Event) -> Bool) {
        guard let lines else { return }
        Self.walk(lines, segmentsBefore: segmentsBefore, body)
    }

    private static func walk(_ run: LineRun, segmentsBefore: Int, _ body: (Event) -> Bool) {
        guard let base = run.bytes.baseAddress else { return }
        var start = 0
        var number = run.firstLine
        var uris = segmentsBefore
        while start < run.bytes.count {
            // Every line of a run ends in a line feed (a last line without one is read on its own).
            let newline = base.distance(to: memchr(base + start, 0x0A, run.bytes.count - start)!)
            let crlf = newline > start && run.bytes[newline - 1] == 0x0D
            let content = UnsafeRawBufferPointer(rebasing: run.bytes[start..<(crlf ? newline - 1 : newline)])
            if let first = content.first {
                let line = RawLine(
                    number: number, offset: run.offset + start, content: content, terminator: crlf ? .crlf : .lf, part: .whole)
                if first != UInt8(ascii: "#") {
                    guard body(.uri(line, index: uris)) else { return }
                    uris += 1
                } else if content.count >= 8, content.loadUnaligned(as: UInt64.self) == TagParser.extInfPrefix {
                    // (A comment of a run starts with `#` too.)
                    guard body(.extInf(line, duration: TagParser.segmentDuration(UnsafeRawBufferPointer(rebasing: content[8...])))) else {
                        return
                    }
                }
            }
            start = newline + 1
            number += 1
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

/// A sum of segment durations in whole nanoseconds: the same whatever the order they are added in (a run's
/// sum and its segments one by one agree), and shown as the decimal it is, without the artefacts of binary
/// fractions (`431.816000001`, not `431.8160000010001`). A sum past 292 years stays there.
struct DurationSum: Equatable {
    private(set) var nanoseconds: Int64 = 0

    /// Adds a duration (a segment's: not negative), to the nearest nanosecond.
    mutating func add(_ seconds: Double) {
        guard seconds >= 0, seconds < 9.2e9 else {
            nanoseconds = seconds < 0 ? .min : .max
            return
        }
        add(nanoseconds: Int64(seconds * 1e9 + 0.5))
    }

    mutating func add(_ other: DurationSum) { add(nanoseconds: other.nanoseconds) }

    private mutating func add(nanoseconds value: Int64) {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(value)
        nanoseconds = overflow ? (value < 0 ? .min : .max) : sum
    }

    var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The seconds as a decimal: whole seconds, then the fraction's digits without trailing zeros.
    var text: String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = String(abs(nanoseconds % 1_000_000_000))
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(nanoseconds < 0 && whole == 0 ? "-" : "")\(whole)" + (fraction.isEmpty ? "" : "." + fraction)
    }
}
