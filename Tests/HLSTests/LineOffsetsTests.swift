import Foundation
import HLS
import SKDTestSupport
import Testing

/// A finding placed by line only gets its line's byte offset, read from the file: over generated files
/// (LF and CRLF line ends, empty lines, long lines, lines across the reading buffer's bounds, no final
/// newline) and findings on any of their lines, the offset is the sum of the bytes before the line, plus
/// the column's; a finding on line 1, or whose offset is known, is left as it is.
@Suite("findings placed by line get their byte offsets")
struct LineOffsetsTests {
    @Test("every line's offset, over generated files", arguments: 0..<40)
    func offsets(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &+ 0x1F5E7)
        let lineCount = Int.random(in: 1...400, using: &random)
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for index in 0..<lineCount {
            starts.append(bytes.count)
            // Mostly short lines; one in eight long enough to cross the reading buffer's bounds (64 KiB).
            let long = Int.random(in: 0..<8, using: &random) == 0
            // (The last line has a byte at least: an empty one after the last line feed is no line.)
            let least = index == lineCount - 1 ? 1 : 0
            let length = long ? Int.random(in: least...70_000, using: &random) : Int.random(in: least...40, using: &random)
            bytes += repeatElement(UInt8(0x41 + index % 26), count: length)
            if index < lineCount - 1 || Bool.random(using: &random) {
                bytes += Bool.random(using: &random) ? [0x0D, 0x0A] : [0x0A]
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-offsets-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = (0..<12).map { _ in Int.random(in: 1...lineCount, using: &random) } + [lineCount]
        let diagnostics = lines.map { line in
            Diagnostic(
                id: "X-test", severity: .error, message: "m",
                location: SourceLocation(path: path, line: line, column: line % 3 + 1, offset: 0))
        }
        let known = Diagnostic(
            id: "X-test", severity: .error, message: "m", location: SourceLocation(path: path, line: 2, column: 1, offset: 7))
        let filled = LineOffsets.filled(diagnostics + [known])
        for (diagnostic, line) in zip(filled, lines) {
            let expected = line == 1 ? 0 : starts[line - 1] + diagnostic.location.column - 1
            #expect(diagnostic.location.offset == expected, "line \(line) of \(lineCount)")
        }
        #expect(filled.last?.location.offset == 7, "a known offset is kept")
    }

    @Test("a file that cannot be read, or standard input, leaves its findings as they are")
    func unreadable() {
        let diagnostics = ["/no/such/file.m3u8", "-"].map { path in
            Diagnostic(id: "X-test", severity: .error, message: "m", location: SourceLocation(path: path, line: 9, column: 1, offset: 0))
        }
        #expect(LineOffsets.filled(diagnostics).map(\.location.offset) == [0, 0])
    }
}
