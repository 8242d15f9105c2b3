import HLS

/// RFC 8216 4.3.2.7: "If a Playlist contains an EXT-X-DATERANGE tag, it MUST also contain at least one
/// EXT-X-PROGRAM-DATE-TIME tag": date ranges are placed on the timeline through it.
struct DateRangeWithoutDateTimeRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-daterange-without-program-date-time", severity: .error,
        summary: "A playlist has EXT-X-DATERANGE but no EXT-X-PROGRAM-DATE-TIME to place it on the timeline.",
        specSection: "4.3.2.7")

    static let tags: Set<TagName>? = [.dateRange, .programDateTime]
    static let watchesSegments = false

    private var firstDateRange: RulePlace?
    private var hasProgramDateTime = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .dateRange: if firstDateRange == nil { firstDateRange = context.place(line) }
        case .programDateTime: hasProgramDateTime = true
        default: break
        }
    }

    mutating func finish(in context: RuleContext) {
        guard let firstDateRange, !hasProgramDateTime else { return }
        context.report(
            Self.kind, "this EXT-X-DATERANGE needs an EXT-X-PROGRAM-DATE-TIME in the playlist to place it in time",
            at: firstDateRange)
    }
}
