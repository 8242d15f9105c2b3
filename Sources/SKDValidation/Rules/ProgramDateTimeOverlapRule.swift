import HLS

/// rfc8216bis 6.2.1: "The Server MUST NOT add any EXT-X-PROGRAM-DATE-TIME tag to a Playlist that would cause
/// the mapping between program date and Media Segment to become ambiguous", except "small (sub-second)
/// overlaps", and "the later segment MUST only partially overlap the preceding segment". A date that goes
/// back a second or more into the segment before it (or to its start or before) maps one instant to two
/// segments: a player seeking to it, or placing a date range there, picks either.
///
/// A segment without its own date takes the one before plus that segment's EXTINF; dates without a time
/// zone are read as UTC, as the draft tells clients to. After EXT-X-SKIP the segment before is not in the
/// playlist, so nothing is compared across it.
struct ProgramDateTimeOverlapRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-program-date-time-overlap", severity: .error,
        summary: "An EXT-X-PROGRAM-DATE-TIME goes back a second or more into the segment before it: a date maps to two segments.",
        specSection: "bis 6.2.1")

    static let tags: Set<TagName>? = [.programDateTime, .extInf, .skip]
    static let watchesSegments = true

    /// The segment before: its date (explicit or carried forward), where that date was written, its EXTINF.
    private var previous: (start: Double, line: Int, duration: Double)?
    /// The segment being read: its own date, if it has one, and its EXTINF.
    private var date: (seconds: Double, text: String, place: RulePlace)?
    private var duration: Double?
    private var dateLine = 0

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch (tag.name, tag.value) {
        case (.programDateTime, .dateTime(let text)):
            guard let seconds = DateTimeParsing.seconds(text) ?? DateTimeParsing.seconds(text + "Z") else { return }
            date = (seconds, text, context.place(line, column: tag.valueColumn ?? 1))
        case (.extInf, .segmentDuration(let seconds, _)):
            duration = seconds
        case (.skip, _):
            previous = nil
        default:
            break
        }
    }

    /// A run's segments one by one, each with its EXTINF's duration (a run holds no date). Before any date
    /// none of them gets one: only an EXTINF after the run's last URI is kept, for the segment it starts.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) {
        if previous == nil, date == nil {
            switch run.last {
            case .uri?: duration = nil
            case .extInf(_, let seconds?)?: duration = seconds
            case .extInf?: if run.firstURILine != nil { duration = nil }
            case nil: break
            }
            return
        }
        run.forEachEvent { event in
            switch event {
            case .extInf(_, let seconds?): duration = seconds
            case .extInf: break
            case .uri: segment(at: event.line, in: context)
            }
            return true
        }
    }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        defer {
            date = nil
            duration = nil
        }
        var start: Double?
        var startLine = dateLine
        if let date {
            start = date.seconds
            startLine = date.place.line
            dateLine = startLine
            if let previous {
                check(date, against: previous, in: context)
            }
        } else if let previous {
            start = previous.start + previous.duration
        }
        guard let start, let duration else {
            previous = nil
            return
        }
        previous = (start, startLine, duration)
    }

    private func check(
        _ date: (seconds: Double, text: String, place: RulePlace), against previous: (start: Double, line: Int, duration: Double),
        in context: RuleContext
    ) {
        let end = previous.start + previous.duration
        let overlap = end - date.seconds
        guard overlap >= 1 || date.seconds <= previous.start else { return }
        let what =
            date.seconds <= previous.start
            ? "is not after the start of the segment before it"
            : "goes back \(Self.seconds(overlap)) s into the segment before it"
        context.report(
            Self.kind,
            "\(date.text) \(what) (dated by line \(previous.line), lasting \(Self.seconds(previous.duration)) s): the dates between map to "
                + "two segments; only a sub-second overlap is allowed (rfc8216bis 6.2.1): correct the date, or start it at the end of "
                + "the segment before",
            at: date.place)
    }

    /// Seconds as a person reads them: to the millisecond, without trailing zeros.
    private static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        guard milliseconds.magnitude < 1e15 else { return "\(value)" }
        let whole = Int(milliseconds)
        let fraction = abs(whole % 1000)
        guard fraction != 0 else { return "\(whole / 1000)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole / 1000).\(digits)"
    }
}
