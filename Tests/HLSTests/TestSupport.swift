import HLS

/// Everything a reader produced for an input held in memory.
struct ReadResult {
    var output: [UInt8]
    var kinds: [LineKind]
    var terminators: [LineTerminator]
    var diagnostics: [Diagnostic]
    var reader: PlaylistReader

    func ids() -> [String] { diagnostics.map(\.id.rawValue) }

    func first(_ id: String) -> Diagnostic? { diagnostics.first { $0.id.rawValue == id } }
}

/// Reads `bytes` with a playlist reader, copying each line back out the way `skdpack cat` does.
/// `maximumRead` makes the source return small chunks, to put line ends on every chunk boundary; `lending`
/// makes it lend them, as a large file's read-ahead does, for the reader to borrow.
func read(
    _ bytes: [UInt8], path: String = "test.m3u8", maximumRead: Int = .max,
    options: ReaderOptions = ReaderOptions(), lending: Bool = false
) throws -> ReadResult {
    let source = MemorySource(bytes, maximumRead: maximumRead, lending: lending)
    let reader = PlaylistReader(source: source, path: path, options: options)
    var diagnostics: [Diagnostic] = []
    reader.onDiagnostic = { diagnostics.append($0) }
    var output: [UInt8] = []
    var kinds: [LineKind] = []
    var terminators: [LineTerminator] = []
    while let line = try reader.next() {
        output += line.raw.content
        output += line.raw.terminator.bytes
        if line.raw.part.endsLine {
            kinds.append(line.kind)
            terminators.append(line.raw.terminator)
        }
    }
    return ReadResult(output: output, kinds: kinds, terminators: terminators, diagnostics: diagnostics, reader: reader)
}

func read(
    _ text: String, maximumRead: Int = .max, options: ReaderOptions = ReaderOptions(), lending: Bool = false
) throws -> ReadResult {
    try read(Array(text.utf8), maximumRead: maximumRead, options: options, lending: lending)
}

/// Parses a single tag line.
func parseTag(_ line: String) -> TagParser.Result {
    Array(line.utf8).withUnsafeBytes { TagParser.parse($0) }
}

/// Parses an attribute list written as the value of a tag line `#X:` (so columns start at 4).
func parseAttributes(_ list: String) -> AttributeListParser.Result {
    Array(("#X:" + list).utf8).withUnsafeBytes { AttributeListParser.parse($0, from: 3) }
}

/// Reads `bytes` by items (runs of plain lines, and single lines), as `skdpack cat` does, returning the
/// bytes written back, the findings, and how many lines came in runs.
func readItems(
    _ bytes: [UInt8], path: String = "test.m3u8", maximumRead: Int = .max, options: ReaderOptions = ReaderOptions(),
    lending: Bool = false
) throws -> (output: [UInt8], diagnostics: [Diagnostic], linesInRuns: Int, reader: PlaylistReader) {
    let source = MemorySource(bytes, maximumRead: maximumRead, lending: lending)
    let reader = PlaylistReader(source: source, path: path, options: options)
    var diagnostics: [Diagnostic] = []
    reader.onDiagnostic = { diagnostics.append($0) }
    var output: [UInt8] = []
    var linesInRuns = 0
    while let item = try reader.nextItem() {
        switch item {
        case .run(let run):
            output += run.bytes
            linesInRuns += run.lineCount
        case .line(let line):
            output += line.raw.bytes
        }
    }
    return (output, diagnostics, linesInRuns, reader)
}
