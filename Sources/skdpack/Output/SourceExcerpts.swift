import HLS
import SKDTemplate

/// The lines that findings point at, read back from the playlist for the human output (the validator
/// streams and keeps no lines). Shown text is safe for a terminal: control characters and invalid UTF-8
/// become `?`, so a hostile playlist cannot send escape sequences, and long lines are cut around the column.
struct SourceExcerpts {
    /// Longest stretch of a line shown.
    static let width = 160

    private var lines: [Int: [UInt8]] = [:]

    /// Reads the lines `numbers` of `path`, with `redaction`'s secrets masked; an unreadable file gives no
    /// excerpts.
    init(path: String, lines numbers: Set<Int>, redaction: Redaction = .none) {
        guard !numbers.isEmpty, let source = try? FileDescriptorSource.open(path: path) else { return }
        var reader = LineReader(source: source)
        let last = numbers.max() ?? 0
        while let line = try? reader.next(), line.number <= last {
            guard numbers.contains(line.number), line.part == .whole || line.part == .overlongHead else { continue }
            // Masked whole, before the cut: a secret astride the cut would otherwise show its first half.
            lines[line.number] = Array(redaction.mask(Array(line.content)).prefix(64 << 10))
        }
    }

    /// The line shown, and the caret under `column`, or `nil` when the line is not known.
    func excerpt(line: Int, column: Int) -> (text: String, caret: String)? {
        guard let bytes = lines[line] else { return nil }
        let index = max(0, min(column - 1, bytes.count))
        let start = index > Self.width - 20 ? index - (Self.width - 20) : 0
        let end = min(bytes.count, start + Self.width)
        let text = Self.terminalSafe(bytes[start..<end])
        let before = Self.terminalSafe(bytes[start..<index])
        let padding = String(before.map { $0 == "\t" ? "\t" : " " })
        // Cut at either end, the line says so: a line cut short must not read as a line that ends there.
        return ((start > 0 ? "…" : "") + text + (end < bytes.count ? "…" : ""), (start > 0 ? " " : "") + padding + "^")
    }

    /// Printable UTF-8 as it is; tabs kept; every other control character and invalid byte as `?`.
    static func terminalSafe(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let isControl = scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value)
                scalars.append(isControl ? "?" : scalar)
            case .error: scalars.append("?")
            case .emptyInput: break loop
            }
        }
        return String(scalars)
    }
}
