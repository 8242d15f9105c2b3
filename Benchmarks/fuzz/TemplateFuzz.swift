// libFuzzer target: the template parser and renderer, and template files (the YAML subset). The input is
// a template, a NUL, a value, a NUL, a template file. Built by run.sh into one module with SKDTemplate.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let text = { (index: Int) in index < parts.count ? String(decoding: parts[index], as: UTF8.self) : "" }
    if let template = try? Template(text(0)) {
        let value = TemplateValue(text(1), source: "fuzz")
        let renderer = TemplateRenderer(template: template)
        if let uri = try? renderer.render({ _ in value }) {
            // What a template renders is always a key URI a playlist can hold.
            precondition(!uri.utf8.contains(0x0A) && !uri.utf8.contains(0x22), "rendered URI breaks the line: \(uri)")
        }
        _ = LicenseURL.derive(fromKeyURI: text(1))
    }
    _ = try? TemplateFile.parse(text(2), path: "fuzz.yaml")
    _ = try? TemplateFile.parse(text(0), path: "fuzz.yaml")
    return 0
}
