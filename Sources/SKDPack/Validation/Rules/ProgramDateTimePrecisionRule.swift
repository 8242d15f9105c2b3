import HLS

/// RFC 8216 4.3.2.6: EXT-X-PROGRAM-DATE-TIME "SHOULD indicate a time zone and fractional parts of seconds,
/// to millisecond accuracy": without a zone the instant depends on the player's clock settings.
struct ProgramDateTimePrecisionRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-program-date-time-precision", severity: .warning,
        summary: "An EXT-X-PROGRAM-DATE-TIME lacks a time zone or fractional seconds.", specSection: "4.3.2.6")

    static let tags: Set<TagName>? = [.programDateTime]
    static let watchesSegments = false

    private var reported = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        // One finding per playlist: a packager that writes one such date writes them all.
        guard !reported, tag.name == .programDateTime, case .dateTime(let text) = tag.value else { return }
        let hasFraction = text.utf8.count > 19 && text.utf8.dropFirst(19).first == UInt8(ascii: ".")
        let hasZone = DateTimeParsing.seconds(text) != nil
        guard !hasFraction || !hasZone else { return }
        reported = true
        let missing = [hasZone ? nil : "a time zone (Z or ±hh:mm)", hasFraction ? nil : "milliseconds"].compactMap { $0 }
        context.report(
            Self.kind, "write the date with \(missing.joined(separator: " and ")), as 2026-11-23T10:00:00.000Z",
            line: line, column: tag.valueColumn ?? 1)
    }
}
