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
    // Runs of plain lines, as apply and cat read.
    let runs = PlaylistReader(source: MemorySource(bytes), path: "fuzz")
    while let item = try? runs.nextItem() {
        if case .line = item { _ = runs.currentTag }
    }
    return 0
}
