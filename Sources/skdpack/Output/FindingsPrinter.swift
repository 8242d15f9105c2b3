import HLS
import SKDPack
import SKDValidation

/// The human form of `validate`'s findings: `path:line:col: severity: message [RULE]`, the line itself and
/// a caret under the column, playlist by playlist as they come; then one summary line.
struct FindingsPrinter {
    var colour: Bool
    private var counts: [Severity: Int] = [:]
    private var playlists = 0
    /// With `--segments`: segments read, the bytes read of them, and their bytes in all.
    private var segments: (read: Int, bytesRead: Int, size: Int)?

    init(colour: Bool) {
        self.colour = colour
    }

    /// Prints the findings of `result`; the lines of a playlist read from standard input come from `spooled`.
    mutating func print(_ result: PlaylistValidation, readingFrom spooled: String?, to output: inout OutputSink) throws(IOError) {
        playlists += 1
        if let measured = result.measured {
            var total = segments ?? (0, 0, 0)
            total.read += measured.segmentsRead
            total.bytesRead += measured.bytesRead
            total.size += measured.segments.reduce(0) { $0 + $1.bytes }
            segments = total
        }
        guard !result.diagnostics.isEmpty else { return }
        let excerpts = SourceExcerpts(
            path: result.path == "-" ? spooled ?? "-" : result.path, lines: Set(result.diagnostics.map(\.location.line)),
            redaction: result.redaction)
        for diagnostic in result.diagnostics {
            counts[diagnostic.severity, default: 0] += 1
            var text = "\(diagnostic.location): \(diagnostic.severity.label(colour: colour)) "
            // (The message as the playlist's redaction leaves it: the channel hides, whatever the library did.)
            text += SourceExcerpts.terminalSafe(ArraySlice(result.redaction.redact(diagnostic.message).utf8)) + " [\(diagnostic.id)]\n"
            if let excerpt = excerpts.excerpt(line: diagnostic.location.line, column: diagnostic.location.column) {
                text += "    \(excerpt.text)\n    \(colour ? "\u{1B}[1;32m\(excerpt.caret)\u{1B}[0m" : excerpt.caret)\n"
            }
            try output.write(text)
        }
    }

    /// The summary line: `3 playlists checked: 1 error, 2 warnings, 0 notes`, and with `--segments` how
    /// many segments were read and how much of them.
    func finish(to output: inout OutputSink, notRead: Int) throws(IOError) {
        var line = Self.summary(playlists: playlists, counts, notRead: notRead)
        if let segments {
            line +=
                "; \(segments.read) segment\(segments.read == 1 ? "" : "s") read, \(Self.bytes(segments.bytesRead)) of "
                + "\(Self.bytes(segments.size))"
        }
        try output.write(line + "\n")
    }

    /// `512 bytes`, `1.2 MB`: decimal units, one decimal.
    static func bytes(_ count: Int) -> String {
        guard count >= 1000 else { return "\(count) bytes" }
        var value = Double(count)
        var unit = 0
        let units = ["kB", "MB", "GB", "TB"]
        repeat {
            value /= 1000
            unit += 1
        } while value >= 1000 && unit < units.count
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit - 1])"
    }

    static func summary(playlists: Int, _ counts: [Severity: Int], notRead: Int) -> String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(counted(playlists, "playlist")) checked: \(counted(counts[.error] ?? 0, "error")), "
            + "\(counted(counts[.warning] ?? 0, "warning")), \(counted(counts[.info] ?? 0, "note"))"
            + (notRead > 0 ? "; \(notRead) \(notRead == 1 ? "path" : "paths") not read" : "")
    }
}
