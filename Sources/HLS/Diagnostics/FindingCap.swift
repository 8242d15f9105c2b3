/// At most `limit` findings of each kind in a playlist: the rest are counted, and said by one finding per kind
/// at the place of the last one left out. The one cap of the reader's findings and of the rules'.
public struct FindingCap: Sendable {
    public let limit: Int
    private var counts: [DiagnosticID: Int] = [:]
    /// Of each kind that had some left out: its severity, how many, and where the last was.
    private var left: [DiagnosticID: (severity: Severity, count: Int, last: SourceLocation)] = [:]

    public init(limit: Int) { self.limit = limit }

    /// Whether a finding of `id` at `location` is kept; counted as left out when its kind has had `limit`
    /// already. Asked before the finding is made: past the cap, a finding costs a count and no more.
    public mutating func admits(_ id: DiagnosticID, severity: Severity, at location: SourceLocation) -> Bool {
        let seen = counts[id, default: 0] + 1
        counts[id] = seen
        guard seen > limit else { return true }
        if left[id] == nil {
            left[id] = (severity, 1, location)
        } else {
            left[id]!.count += 1
            left[id]!.last = location
        }
        return false
    }

    /// One finding for each kind that had some left out, saying how many; then none until more are.
    public mutating func summaries() -> [Diagnostic] {
        defer { left.removeAll() }
        return left.sorted { $0.key < $1.key }.map { id, entry in
            DiagnosticKind(id: id, severity: entry.severity, summary: "", specSection: "")(
                "\(entry.count) more findings of \(id) in this playlist are not listed", at: entry.last)
        }
    }
}
