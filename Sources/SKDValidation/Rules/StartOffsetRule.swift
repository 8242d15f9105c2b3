import HLS

/// RFC 8216 4.3.5.2: the absolute TIME-OFFSET of EXT-X-START "SHOULD NOT be larger than the Playlist
/// duration", and in a live playlist (no EXT-X-ENDLIST) "SHOULD NOT be within three target durations of the
/// end": players start where the server may not have media yet. A playlist whose EXT-X-SKIP leaves
/// segments out (a delta update) does not show its whole duration: nothing can be said then.
struct StartOffsetRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-start-offset", severity: .warning,
        summary: "EXT-X-START's TIME-OFFSET is past the playlist's duration, or within three target durations of a "
            + "live playlist's end.",
        specSection: "4.3.5.2")

    static let tags: Set<TagName>? = [.start, .extInf, .targetDuration, .endList, .skip]
    static let watchesSegments = false

    private var start: (offset: Double, place: RulePlace)?
    private var duration = DurationSum()
    private var targetDuration: Double?
    private var ended = false
    private var isMedia = false
    /// EXT-X-SKIP hides segments: the playlist's duration is unknown.
    private var skipped = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .start:
            if let offset = tag.decimalFloat("TIME-OFFSET") { start = (offset, context.place(line)) }
        case .extInf:
            isMedia = true
            if case .segmentDuration(let seconds, _) = tag.value { duration.add(seconds) }
        case .targetDuration:
            if case .decimalInteger(let value) = tag.value { targetDuration = Double(value) }
        case .endList:
            ended = true
        case .skip:
            skipped = true
        default:
            break
        }
    }

    mutating func segments(_ run: SegmentRun, in context: RuleContext) {
        if run.extInfCount > 0 { isMedia = true }
        duration.add(run.totalDuration)
    }

    mutating func finish(in context: RuleContext) {
        guard let start, isMedia, !skipped else { return }
        let distance = abs(start.offset)
        let duration = self.duration.seconds
        if distance > duration {
            context.report(Self.kind, "TIME-OFFSET=\(start.offset) is beyond the playlist's \(self.duration.text) s", at: start.place)
        } else if !ended, let targetDuration, start.offset >= 0 ? duration - distance < 3 * targetDuration : distance < 3 * targetDuration {
            context.report(
                Self.kind,
                "TIME-OFFSET=\(start.offset) is within three target durations (\(3 * targetDuration) s) of this live playlist's end",
                at: start.place)
        }
    }
}
