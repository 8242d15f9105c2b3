// libFuzzer target: the line reader, the playlist reader and the attribute-list parser, on any bytes.
// Built by run.sh into one module with the HLS sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var options = ReaderOptions()
    options.maximumLineLength = 512  // small, so overlong lines and their parts are exercised too
    // Line by line, with reads of odd sizes across chunk boundaries.
    let reader = PlaylistReader(source: MemorySource(bytes, maximumRead: 1 + size % 97), path: "fuzz", options: options)
    var findings = 0
    reader.onDiagnostic = { _ in findings += 1 }
    while let line = try? reader.next() {
        _ = reader.currentTag
        _ = reader.currentAttributes
        _ = line.text
    }
    _ = reader.keysInForce
    // Runs of plain lines, as apply and cat read: the input back byte for byte. And the same with the
    // chunks borrowed at odd sizes, as from a large file's read-ahead: the same bytes, the same findings.
    func items(_ source: MemorySource) -> (output: [UInt8], findings: [String]) {
        let runs = PlaylistReader(source: source, path: "fuzz")
        var findings: [String] = []
        runs.onDiagnostic = { findings.append("\($0)") }
        var output: [UInt8] = []
        while let item = try? runs.nextItem() {
            switch item {
            case .run(let run): output += run.bytes
            case .line(let line):
                _ = runs.currentTag
                output += line.raw.bytes
            }
        }
        return (output, findings)
    }
    let read = items(MemorySource(bytes))
    let borrowed = items(MemorySource(bytes, maximumRead: 1 + size % 89, lending: true))
    precondition(read.output == bytes, "cat's reading changed a byte")
    precondition(borrowed.output == bytes, "reading borrowed chunks changed a byte")
    precondition(borrowed.findings == read.findings, "borrowed chunks gave other findings")
    // Again under limits taken from the input: nothing past the size limit is ever delivered, and no more
    // segments than the segment limit.
    var limited = ReaderOptions()
    limited.maximumLineLength = 64
    limited.maximumPlaylistSize = size - size / 3
    limited.maximumSegmentCount = size % 7
    let bounded = PlaylistReader(source: MemorySource(bytes, maximumRead: 1 + size % 13), path: "fuzz", options: limited)
    var delivered = 0
    while let item = try? bounded.nextItem() {
        switch item {
        case .run(let run): delivered = run.offset + run.bytes.count
        case .line(let line): delivered = line.raw.offset + line.raw.bytes.count
        }
        precondition(delivered <= limited.maximumPlaylistSize, "a byte past the size limit was delivered")
    }
    precondition(bounded.segmentCount <= limited.maximumSegmentCount, "a segment past the limit was counted")
    return 0
}
