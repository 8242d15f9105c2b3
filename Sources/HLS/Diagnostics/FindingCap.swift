/// At most `limit` findings of each kind in a playlist: the rest are counted, and said by one finding per kind
/// at the place of the last one left out. The one cap of the reader's findings and of the rules'.
public struct FindingCap: Sendable {
    public let limit: Int
    private var counts: [DiagnosticID: Int] = [:]
    private var left: [DiagnosticID: (kind: DiagnosticKind, count: Int, last: SourceLocation)] = [:]

    public init(limit: Int) { self.limit = limit }

    /// Whether `finding` is kept; counted as left out when its kind has had `limit` already.
    public mutating func admits(_ finding: Diagnostic) -> Bool {
        let seen = counts[finding.id, default: 0] + 1
        counts[finding.id] = seen
        guard seen > limit else { return true }
        let kind = DiagnosticKind(id: finding.id, severity: finding.severity, summary: "", specSection: "")
        left[finding.id, default: (kind, 0, finding.location)].count += 1
        left[finding.id]?.last = finding.location
        return false
    }

    /// One finding for each kind that had some left out, saying how many; then none until more are.
    public mutating func summaries() -> [Diagnostic] {
        defer { left.removeAll() }
        return left.sorted { $0.key < $1.key }.map { id, entry in
            entry.kind("\(entry.count) more findings of \(id) in this playlist are not listed", at: entry.last)
        }
    }
}
