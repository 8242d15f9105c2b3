// libFuzzer target: the media segment (fragment) reader on any bytes, with trex defaults. Every input is
// read or refused with a located error inside the input; counts and sums never trap.
// Built by run.sh into one module with the MP4 sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFragments(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let defaults = [FragmentDefaults(trackID: 1, sampleDuration: 0xFFFF_FFFF, sampleSize: 0xFFFF_FFFF, sampleFlags: 0x1_0000)]
    do {
        let segment = try MediaSegment.parse(bytes, defaults: defaults)
        precondition(segment.bytesRead <= size + 16 * segment.topLevelBoxes.count)
        for fragment in segment.fragments {
            precondition(fragment.offset >= 0 && fragment.offset < size)
            for run in fragment.tracks {
                _ = run.protectedSampleCount(trackDefault: true)
                _ = run.keyIDs(trackDefault: nil, trackProtected: true)
                _ = run.startsWithSyncSample
            }
        }
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "an error placed outside the input: \(error)")
        _ = error.description
    }
    return 0
}
