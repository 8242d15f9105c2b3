import HLS

/// Keys of different KEYFORMAT may apply to one segment only "if they ultimately produce the same
/// decryption key": with different METHODs they cannot, and the segment plays under one system only.
package struct KeyMethodMismatchRule: ValidationRule {
    package static let kind = DiagnosticKind(
        id: "KEY-method-mismatch", severity: .error,
        summary: "Keys of different KEYFORMAT in force on the same segment have different METHODs.",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key]

    /// The keys in force: KEYFORMAT, METHOD and line (a few systems: a list, searched).
    private var inForce: [(keyFormat: String, method: String, line: Int)] = []
    /// Conflicts already reported, as the pair of key lines.
    private var reported: Set<[Int]> = []
    /// The keys changed since the last segment: only then can the next segment be under a new conflict
    /// (a playlist has millions of segments and a handful of key changes).
    private var changed = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .key, let key = context.key, !key.method.isEmpty else { return }
        if key.isClear {
            inForce.removeAll()
        } else {
            if let index = inForce.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
                inForce[index] = (key.keyFormat, key.method, line.raw.number)
            } else {
                inForce.append((key.keyFormat, key.method, line.raw.number))
            }
        }
        changed = true
    }

    /// A run of segments is judged at its first (the keys in force change only at a tag): the segments after it change
    /// nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard changed else { return }
        changed = false
        guard inForce.count > 1 else { return }
        let keys = inForce.sorted { $0.line < $1.line }
        guard let first = keys.first, let other = keys.first(where: { $0.method != first.method }) else {
            return
        }
        guard reported.insert([first.line, other.line]).inserted else { return }
        context.report(
            Self.kind,
            "this segment is under the \(first.keyFormat) key of line \(first.line) (METHOD=\(first.method)) "
                + "and the \(other.keyFormat) key of line \(other.line) (METHOD=\(other.method)); give them the same METHOD",
            line: line)
    }
}
