// libFuzzer target: the CPIX reader (libxml2's reader underneath) on any bytes, and the usage rules of
// whatever it reads. Every input is read or refused with a line; no key value is kept.
// Built by run.sh into one module with the SKDXML, MP4 and CPIX sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCPIX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let document = try CPIXReader.parse(bytes, path: "fuzz.xml")
        var video = TrackContext(type: .video)
        video.pixels = 1920 * 1080
        video.frameRate = 25
        var audio = TrackContext(type: .audio)
        audio.channels = 6
        for var track in [video, audio, TrackContext(type: .other)] {
            for period in [nil] + document.periodsInOrder.prefix(3).map(\.id) {
                track.periodID = period
                _ = document.select(for: track)
            }
        }
        for rule in document.usageRules { _ = rule.summary }
        _ = document.unusableMapping
    } catch {
        precondition(error.line >= 0, "an error without a line")
        _ = error.description
    }
    return 0
}
