// libFuzzer target: every tag parser and checker on each line of any bytes, and the tag line editor.
// Built by run.sh into one module with the HLS sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTags(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var start = 0
    var spans: [AttributeSpan] = []
    while start <= size {
        var end = start
        while end < size, bytes[end] != 0x0A { end += 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        let parsed = TagParser.parse(line)
        _ = TagParser.checkSegmentDuration(line)
        if let tag = parsed.tag as Tag? {
            _ = tag.typedAttributes
            _ = KeyTag(tag)
            if let name = tag.name { _ = TagChecker.check(line, name: name, spans: &spans) }
        }
        for name in [TagName.key, .streamInf, .media, .map, .define] {
            _ = TagChecker.check(line, name: name, spans: &spans)
        }
        start = end + 1
    }
    return 0
}
