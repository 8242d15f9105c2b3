// libFuzzer target: the template parser and renderer, and template files (the YAML subset). The input is
// a template, a NUL, a value, a NUL, a template file. Built by run.sh into one module with SKDTemplate.
//
// Asserted: whatever a template, a template file or a value holds, a URI that renders holds no quote, no
// control character and no space: nothing that could end its quoted-string or its line in a playlist; and
// the template compiled (the value folded in, or given to each render) renders the same URI, or refuses
// with the same message.

func assertWritable(_ uri: String, _ what: String) {
    precondition(
        !uri.unicodeScalars.contains { $0 == "\"" || $0 == " " || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
        "\(what) rendered a URI that breaks its line: \(uri.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let text = { (index: Int) in index < parts.count ? String(decoding: parts[index], as: UTF8.self) : "" }
    let value = TemplateValue(text(1), source: "fuzz")
    if let template = try? Template(text(0)) {
        if let uri = try? TemplateRenderer(template: template).render({ _ in value }) { assertWritable(uri, "a template") }
        _ = LicenseURL.derive(fromKeyURI: text(1))
    }
    // A template file, with the fields skdpack's key templates read; what it renders, with its own defaults
    // and patterns, is held to the same bar.
    let fields: Set<String> = ["method", "keyformat", "keyformatversions", "iv", "session_keys"]
    for source in [text(2), text(0)] {
        guard let definition = try? TemplateFile.parse(source, path: "fuzz.yaml", fields: fields) else { continue }
        if let uri = try? definition.renderer.render({ _ in value }) { assertWritable(uri, "a template file") }
        if let uri = try? definition.renderer.render({ _ in nil }) { assertWritable(uri, "a template file's defaults") }
        assertCompiledSame(definition.renderer, value)
    }
    if let template = try? Template(text(0)) { assertCompiledSame(TemplateRenderer(template: template), value) }
    return 0
}

/// The renderer's answer for `value` in every variable against the compiled template's, the value folded
/// in at compile time and given to each render.
func assertCompiledSame(_ renderer: TemplateRenderer, _ value: TemplateValue) {
    func answer(_ body: () throws(RenderError) -> String) -> String {
        do { return try body() } catch { return "refused: " + error.message }
    }
    let expected = answer { () throws(RenderError) in try renderer.render { _ in value } }
    let folded = CompiledTemplate(renderer) { _ in .fixed(value) }
    let slotted = CompiledTemplate(renderer) { _ in .slot(0) }
    var values = CompiledTemplate.Values()
    values.set(0, value.value)
    for compiled in [folded, slotted] {
        var uri: [UInt8] = []
        let got = answer { () throws(RenderError) in
            try compiled.render(&values, into: &uri) { _ in value.source }
            return String(decoding: uri, as: UTF8.self)
        }
        precondition(got == expected, "compiled \(got.debugDescription) but the renderer \(expected.debugDescription)")
    }
}
