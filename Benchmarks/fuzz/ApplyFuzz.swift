// libFuzzer target: apply end to end (a migration that rewrites and inserts FairPlay keys) and validate, on
// any playlist, with any template file. The input is a template file, a NUL, a content id (empty: taken
// from each key's old URI by a --match pattern), a line feed, and the playlist; without a NUL, a fixed
// template. Built by run.sh into one module with HLS, SKDTemplate and
// SKDPack.
//
// Asserted: whatever the template file and the value hold, a template that loads makes an output whose
// lines are the input's lines, except key and version lines rewritten in place, plus inserted lines, each
// one whole EXT-X-KEY or EXT-X-VERSION tag.

let fixedTemplate = """
    name: fuzz
    uri: "skd://lic.example.com/fps?cid={content_id|url}&k={key_index}"
    session_keys: true
    """

/// Keeps what a pass writes, and how many lines it inserted.
struct MemoryEmitter: PlaylistEmitter {
    var bytes: [UInt8] = []
    var inserted = 0
    var written: Int { bytes.count }
    mutating func keep(_ raw: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) throws(IOError) { bytes += raw }
    mutating func replace(_ old: UnsafeRawBufferPointer, with new: UnsafeRawBufferPointer, terminator: LineTerminator) throws(IOError) {
        bytes += new
        append(terminator)
    }
    mutating func remove(_ old: [UInt8]) throws(IOError) {}
    mutating func insert(_ content: [UInt8], terminator: LineTerminator, afterUnterminated: Bool) throws(IOError) {
        inserted += 1
        if afterUnterminated { append(terminator) }
        bytes += content
        if !afterUnterminated { append(terminator) }
    }
    private mutating func append(_ terminator: LineTerminator) {
        switch terminator {
        case .lf: bytes.append(0x0A)
        case .crlf: bytes += [0x0D, 0x0A]
        default: break
        }
    }
}

func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { $0.last == 0x0D ? $0.dropLast() : $0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApply(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var templateText = fixedTemplate
    if let nul = bytes.firstIndex(of: 0) {
        templateText = String(decoding: bytes[..<nul], as: UTF8.self)
        bytes = Array(bytes[(nul + 1)...])
    }
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let contentID = String(decoding: bytes[..<newline], as: UTF8.self)
    let playlist = Array(bytes[min(newline + 1, bytes.count)...])
    guard let definition = try? TemplateFile.parse(templateText, path: "fuzz.yaml", fields: KeyTemplate.fields),
        let template = try? KeyTemplate(reading: definition)
    else { return 0 }
    // An empty content id takes it from each key's old URI (a --match migration), else it is given for the run.
    let variables =
        contentID.isEmpty
        ? VariableSources(match: try? NamedPattern("(?:cid=|//)(?<content_id>[^&?/]+)"))
        : VariableSources(commandLine: [("content_id", contentID)])
    var options = ApplyOptions(template: template, variables: variables, assumeEncrypted: true, sessionKeys: true)
    options.readerOptions.maximumLineLength = 4096
    let applier = MediaPlaylistApplier(options: options)
    let identity = PlaylistIdentity(path: "t/v.m3u8")
    var emitter = MemoryEmitter()
    guard var result = try? applier.pass(MemorySource(playlist), identity: identity, into: &emitter) else { return 0 }
    if let followUp = result.followUp {
        emitter = MemoryEmitter()
        guard let again = try? applier.pass(MemorySource(playlist), identity: identity, plan: followUp, into: &emitter) else { return 0 }
        result = again
    } else if let offset = result.versionDigitOffset {
        emitter.bytes.replaceSubrange(offset..<(offset + 1), with: KeyFormatVersion.digit)
    }
    if !result.outcome.failed {
        let input = lines(playlist)
        let output = lines(emitter.bytes)
        precondition(
            output.count == input.count + emitter.inserted, "\(output.count) lines out of \(input.count), \(emitter.inserted) inserted")
        let known = Set(input.map { Array($0) })
        for line in output where !known.contains(Array(line)) {
            // Only FairPlay key lines and the version line are ever written; each must read back as one tag.
            let text = String(decoding: line, as: UTF8.self)
            precondition(text.hasPrefix("#EXT-X-KEY:") || text.hasPrefix("#EXT-X-VERSION:"), "a line skdpack did not write: \(text)")
            if text.hasPrefix("#EXT-X-KEY:"), text.contains(FairPlay.keyFormat) {
                let parsed = Array(line).withUnsafeBytes { TagParser.parse($0) }
                precondition(parsed.tag.attributes?["URI"] != nil, "a written FairPlay key without a URI: \(text)")
            }
        }
    }
    _ = try? PlaylistValidator.validate(MemorySource(playlist), path: "t/v.m3u8")
    return 0
}
