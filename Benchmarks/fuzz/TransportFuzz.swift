// libFuzzer target: the MPEG-TS segment reader on any bytes. Every input is read or refused with an
// offset inside the input; no table, PES header, SPS or ADTS header is read past its end.
// Built by run.sh into one module with the MPEGTS sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let segment = try TransportSegment.parse(bytes)
        precondition(segment.bytesRead <= size)
        for offset in segment.syncLosses { precondition(offset >= 0 && offset < size) }
        _ = segment.duration
        for stream in segment.streams {
            _ = stream.codec
            _ = stream.startsWithSyncSample
        }
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "an error placed outside the input: \(error)")
    }
    return 0
}
