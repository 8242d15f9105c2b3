/// The byte offsets of findings placed by line only (a package's findings, made from what a playlist's
/// facts kept: lines, not offsets), read from the files once, after the findings are made: one pass per file
/// that has such a finding, up to its last such line.
public enum LineOffsets {
    /// `diagnostics` with the offset of each one on a line past the first whose offset is not known (0)
    /// set to its line's start plus its column's bytes (the column of such a finding is 1, or counted in
    /// bytes). A file that cannot be read leaves its findings as they are.
    public static func filled(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var wanted: [String: [Int]] = [:]
        for (index, diagnostic) in diagnostics.enumerated() where diagnostic.location.offset == 0 && diagnostic.location.line > 1 {
            wanted[diagnostic.location.path, default: []].append(index)
        }
        guard !wanted.isEmpty else { return diagnostics }
        var filled = diagnostics
        for (path, indices) in wanted where path != "-" {
            let lines = Set(indices.map { diagnostics[$0].location.line })
            guard let starts = try? lineStarts(lines, in: path) else { continue }
            for index in indices {
                guard let start = starts[filled[index].location.line] else { continue }
                filled[index].location.offset = start + max(filled[index].location.column - 1, 0)
            }
        }
        return filled
    }

    /// The offset where each of `lines` starts in the file at `path`, read up to the last of them by the
    /// reader's own line reader (so lines are numbered as the findings' are).
    static func lineStarts(_ lines: Set<Int>, in path: String) throws(IOError) -> [Int: Int] {
        guard let last = lines.max() else { return [:] }
        var reader = LineReader(source: try FileDescriptorSource.open(path: path))
        var starts: [Int: Int] = [:]
        while let line = try reader.next(), line.number <= last {
            guard lines.contains(line.number), line.part == .whole || line.part == .overlongHead else { continue }
            starts[line.number] = line.offset
        }
        return starts
    }
}
