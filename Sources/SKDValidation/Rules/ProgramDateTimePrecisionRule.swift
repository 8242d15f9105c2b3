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
        guard !reported, tag.name == .programDateTime, case .dateTime(let text) = tag.value, let missing = Self.missing(text)
        else { return }
        reported = true
        context.report(Self.kind, "write the date with \(missing): \(Self.suggestion(for: text))", line: line, column: tag.valueColumn ?? 1)
    }

    /// What the date/time `text` lacks of what rfc8216bis asks of every date a playlist writes (a time zone,
    /// fractional seconds to the millisecond), as words; `nil` when it has both.
    static func missing(_ text: String) -> String? {
        // "fractional parts of seconds, to at least millisecond accuracy": three digits or more.
        let fraction = text.utf8.dropFirst(19)
        let hasFraction = fraction.first == UInt8(ascii: ".") && fraction.dropFirst().prefix(while: { $0 &- 0x30 < 10 }).count >= 3
        let hasZone = DateTimeParsing.seconds(text) != nil
        guard !hasFraction || !hasZone else { return nil }
        return [hasZone ? nil : "a time zone (Z or ±hh:mm)", hasFraction ? nil : "milliseconds"].compactMap { $0 }.joined(
            separator: " and ")
    }

    /// The date as written with what it lacks added: milliseconds `.000`, and `Z` where it has no zone (if
    /// the time is UTC; the packager's zone otherwise).
    static func suggestion(for text: String) -> String {
        let characters = Array(text)
        guard characters.count >= 19 else { return "YYYY-MM-DDThh:mm:ss.sssZ" }
        var rest = characters[19...]
        var fraction = ".000"
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isNumber }
            fraction = "." + String(digits) + String(repeating: "0", count: max(0, 3 - digits.count))
            rest = rest.dropFirst(1 + digits.count)
        }
        let zone = rest.isEmpty ? "Z" : String(rest)
        return String(characters[..<19]) + fraction + zone + (rest.isEmpty ? " (if the time is UTC; else its offset, as +01:00)" : "")
    }
}
