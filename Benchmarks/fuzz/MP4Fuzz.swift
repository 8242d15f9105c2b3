// libFuzzer target: the init segment reader on any bytes. Every input is read or refused with a located
// error; the offset of an error always lies inside the input, and no box is read past its parent.
// Built by run.sh into one module with the MP4 sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let segment = try InitSegment.parse(bytes)
        for track in segment.tracks {
            _ = track.defaultKID?.uuid
            if let iv = track.constantIV { precondition(iv.count <= 255) }
        }
        for header in segment.protectionSystems { precondition(header.offset >= 0 && header.offset < size) }
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "an error placed outside the input: \(error)")
        _ = error.description
    }
    // The same bytes as the range of a larger file: offsets move by the range's start.
    if let error = (Result { () throws(MP4FormatError) in try InitSegment.parse(bytes, baseOffset: 1000) }).failure {
        precondition(error.offset >= 1000)
    }
    return 0
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
