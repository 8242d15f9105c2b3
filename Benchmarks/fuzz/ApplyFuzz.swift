// libFuzzer target: apply end to end (a migration that rewrites and inserts FairPlay keys) and validate, on
// any playlist; the first line of the input is a content id. Built by run.sh into one module with HLS,
// SKDTemplate and SKDPack.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApply(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let contentID = String(decoding: bytes[..<newline], as: UTF8.self)
    let playlist = Array(bytes[min(newline + 1, bytes.count)...])
    guard let template = try? TemplateDefinition(inline: "skd://lic.example.com/fps?cid={content_id|url}&k={key_index}")
    else { return 0 }
    var options = ApplyOptions(
        template: template, variables: VariableSources(commandLine: [("content_id", contentID)]), assumeEncrypted: true,
        sessionKeys: true)
    options.readerOptions.maximumLineLength = 4096
    let applier = MediaPlaylistApplier(options: options)
    var emitter = DiscardEmitter()
    if let result = try? applier.pass(MemorySource(playlist), identity: PlaylistIdentity(path: "t/v.m3u8"), into: &emitter),
        let followUp = result.followUp
    {
        var again = DiscardEmitter()
        _ = try? applier.pass(MemorySource(playlist), identity: PlaylistIdentity(path: "t/v.m3u8"), plan: followUp, into: &again)
    }
    _ = try? PlaylistValidator.validate(MemorySource(playlist), path: "t/v.m3u8")
    return 0
}
