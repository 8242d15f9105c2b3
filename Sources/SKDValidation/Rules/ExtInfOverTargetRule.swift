import HLS

/// Every EXTINF, rounded to the nearest integer, must not exceed EXT-X-TARGETDURATION: a player that waits
/// one target duration for the next segment of a live playlist stalls on a longer one.
struct ExtInfOverTargetRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-extinf-over-target", severity: .error,
        summary: "A segment's EXTINF, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION.",
        specSection: "4.3.3.1")

    static let tags: Set<TagName>? = [.targetDuration, .extInf]
    static let watchesSegments = false

    private var target: (seconds: UInt64, line: Int)?
    /// Durations seen before the target duration tag, which may come after the first segment.
    private var early: [(duration: Double, location: SourceLocation)] = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch (tag.name, tag.value) {
        case (.targetDuration, .decimalInteger(let seconds)):
            target = (seconds, line.raw.number)
            for entry in early { check(entry.duration, at: entry.location, in: context) }
            early.removeAll()
        case (.extInf, .segmentDuration(let duration, _)):
            let location = line.location(in: context.path, column: tag.valueColumn ?? 1)
            if target == nil { early.append((duration, location)) } else { check(duration, at: location, in: context) }
        default:
            break
        }
    }

    /// Each duration of a run, as an EXTINF's: placed at its value (after `#EXTINF:`) only where it is
    /// reported or kept, and read one by one only where the run's longest is over the target.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) {
        // (Rounded durations are in the order of the durations: none is over where the longest is not.)
        if let target, run.longest.rounded() <= Double(target.seconds) { return }
        run.forEachEvent { event in
            guard case .extInf(let line, let duration?) = event else { return true }
            if let target, duration.rounded() <= Double(target.seconds) { return true }
            let location = SourceLocation(path: context.path, line: line.number, column: 9, offset: line.offset + 8)
            if target == nil { early.append((duration, location)) } else { check(duration, at: location, in: context) }
            return true
        }
    }

    private func check(_ duration: Double, at location: SourceLocation, in context: RuleContext) {
        let rounded = duration.rounded()
        guard let target, rounded > Double(target.seconds) else { return }
        // A duration no decimal-integer could hold (the grammar allows any number of digits) is a typo, not
        // a target to raise to; converting it to an integer would trap.
        let advice =
            rounded < Double(UInt64.max)
            ? "raise EXT-X-TARGETDURATION to \(UInt64(rounded)), or correct the EXTINF if the segment is shorter"
            : "no EXT-X-TARGETDURATION can be that long: check the duration"
        context.report(
            Self.kind,
            "this segment lasts \(duration) s, over the target duration of \(target.seconds) s (line \(target.line)); "
                + advice,
            at: location)
    }
}
