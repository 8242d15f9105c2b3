import HLS

/// rfc8216bis 4.4.5.1: "Any EXT-X-DATERANGE attribute whose value is an ISO/IEC 8601 date SHOULD indicate a
/// time zone and fractional parts of seconds, to at least millisecond accuracy": without a zone the range
/// starts when the player's clock settings say. The same advice as for EXT-X-PROGRAM-DATE-TIME
/// (``ProgramDateTimePrecisionRule``), said once a playlist.
struct DateRangePrecisionRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-daterange-precision", severity: .warning,
        summary: "An EXT-X-DATERANGE date lacks a time zone or fractional seconds.", specSection: "bis 4.4.5.1")

    static let tags: Set<TagName>? = [.dateRange]
    static let watchesSegments = false

    private var reported = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard !reported, tag.name == .dateRange, let list = tag.attributes else { return }
        for name in ["START-DATE", "END-DATE"] {
            // A date that is no ISO 8601 date at all is HLS-daterange's error.
            guard let attribute = list[name], attribute.isQuoted,
                attribute.text.utf8.withContiguousStorageIfAvailable({ TagChecker.isDateTime(UnsafeRawBufferPointer($0)) }) == true,
                let missing = ProgramDateTimePrecisionRule.missing(attribute.text)
            else { continue }
            reported = true
            context.report(
                Self.kind,
                "write \(name) with \(missing): \(ProgramDateTimePrecisionRule.suggestion(for: attribute.text))",
                line: line, column: attribute.column)
            return
        }
    }
}
