import HLS

/// RFC 8216 4.3.2.7, on END-ON-NEXT: "Other EXT-X-DATERANGE tags with the same CLASS attribute MUST NOT
/// specify Date Ranges that overlap": a class whose ranges end at the next one (ad breaks, chapters) is a
/// sequence, and a range running into the next makes its end ambiguous. Checked for the classes that use
/// END-ON-NEXT, where the sentence stands; tags of one ID are one range.
struct DateRangeOverlapRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-daterange-overlap", severity: .error,
        summary: "Two date ranges of a CLASS that uses END-ON-NEXT overlap.", specSection: "4.3.2.7")

    static let tags: Set<TagName>? = [.dateRange]
    static let watchesSegments = false

    private struct DateRange {
        var id: String
        var dateClass: String?
        var start: Double?
        var end: Double?
        var place: RulePlace
    }

    private var ranges: [DateRange] = []
    private var indexByID: [String: Int] = [:]
    private var endOnNextClasses: Set<String> = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .dateRange, let id = tag.quotedString("ID") else { return }
        let index =
            indexByID[id]
            ?? {
                ranges.append(DateRange(id: id, place: context.place(line)))
                indexByID[id] = ranges.count - 1
                return ranges.count - 1
            }()
        var range = ranges[index]
        if let dateClass = tag.quotedString("CLASS") { range.dateClass = dateClass }
        if range.start == nil, let start = tag.quotedString("START-DATE").flatMap(DateTimeParsing.seconds) { range.start = start }
        if let end = tag.quotedString("END-DATE").flatMap(DateTimeParsing.seconds) {
            range.end = end
        } else if let start = range.start, let duration = tag.decimalFloat("DURATION") {
            range.end = start + duration
        }
        if tag.unquoted("END-ON-NEXT") == "YES", let dateClass = range.dateClass { endOnNextClasses.insert(dateClass) }
        ranges[index] = range
    }

    mutating func finish(in context: RuleContext) {
        for dateClass in endOnNextClasses.sorted() {
            let sequence = ranges.filter { $0.dateClass == dateClass && $0.start != nil }.sorted { $0.start! < $1.start! }
            for (earlier, later) in zip(sequence, sequence.dropFirst()) {
                let overlaps = earlier.start == later.start || (earlier.end.map { $0 > later.start! + 0.0005 } ?? false)
                guard overlaps else { continue }
                context.report(
                    Self.kind,
                    "ID=\"\(later.id)\" starts inside ID=\"\(earlier.id)\" (line \(earlier.place.line)), of the same CLASS=\"\(dateClass)\"; ranges of a class that uses END-ON-NEXT do not overlap",
                    at: later.place)
            }
        }
    }
}
