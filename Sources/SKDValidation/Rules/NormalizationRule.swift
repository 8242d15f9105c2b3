import HLS
// The standard library's own NFC normalizer (the one String comparison uses), through its Unicode SPI:
// Foundation's would do the same, but linking Foundation into this library adds to every run's start-up
// (dynamic symbol lookups, conformance scans) what only a rare non-ASCII line needs.
@_spi(_Unicode) import Swift

/// RFC 8216 4.1: "All character sequences MUST be normalized according to Unicode normalization form NFC":
/// a NAME or URI written decomposed (`e` + U+0301) is a different byte string from the composed one, so
/// byte-wise comparisons (4.2) and file lookups miss. Only lines with non-ASCII bytes are looked at (ASCII
/// is NFC as it is).
struct NormalizationRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-not-nfc", severity: .error,
        summary: "A line's text is not in Unicode normalization form NFC.", specSection: "4.1")

    static let tags: Set<TagName>? = []
    static let watchesSegments = false

    mutating func text(_ line: PlaylistLine, in context: RuleContext) {
        let content = line.content
        let text = String(decoding: content, as: UTF8.self)
        let composed = text._nfcCodeUnits
        guard !composed.elementsEqual(content) else { return }
        let firstDifference = zip(composed, content).prefix { $0 == $1 }.count
        // The character that differs starts at the last scalar boundary before the first differing byte.
        // (NFC can also be the longer form, U+0958 for one: then the line may be a prefix of it.)
        var column = min(firstDifference, content.count - 1)
        while column > 0, content[column] & 0xC0 == 0x80 { column -= 1 }
        context.report(
            Self.kind, "this text is not in Unicode NFC (a decomposed character); write it composed, as NFC normalizes it",
            line: line, column: context.fileColumn(column + 1, on: line))
    }
}
