import SKDTestSupport
import Testing

@testable import SKDTemplate

/// A compiled template must render what the template's renderer renders, byte for byte, and refuse what
/// it refuses with the same message, whichever values are folded in at compile time and whichever come
/// with each render: checked over generated templates (filters, patterns, defaults, optional variables,
/// a value first, a variable right after `skd://`) and values (plain, to escape, not ASCII, quotes and
/// control characters, a second scheme, pattern misses).
@Suite("compiled templates render what the renderer renders")
struct CompiledTemplateTests {
    static let names = ["a", "b", "c"]
    static let values = [
        "title-42", "Title One", "x=y&z/1", "%41%zz", "café", "https://lic.example.com/fps", "HTTPS://Up.Example.com",
        "a\"b", "line\nbreak", "\u{85}c1", "", "00000000000000000000000000000007", "ABCdef", "{x}",
    ]
    static let patterns: [String?] = [nil, nil, "[a-z0-9-]+", "[^\\x00-\\x1F\\x7F]{1,256}", "https://[A-Za-z0-9.-]+(/.*)?", "[0-9a-f]{32}"]
    static let filters: [[TemplateFilter]] = [[], [], [.url], [.lower], [.upper, .url], [.stripScheme], [.stripScheme, .lower]]

    /// A template of literal text and placeholders of the three names, and its variables' specs.
    static func template(_ random: inout SplitMix) throws -> (String, [String: VariableSpec]) {
        var source = ["skd://", "skd://", "skd:", ""].randomElement(using: &random)!
        for index in 0..<Int.random(in: 1...4, using: &random) {
            if index > 0 || Bool.random(using: &random) { source += ["/", "?cid=", "&k=", "x", "/fps?"].randomElement(using: &random)! }
            let name = names.randomElement(using: &random)!
            let filter = filters.randomElement(using: &random)!.map { "|" + $0.rawValue }.joined()
            source += "{\(name)\(filter)}"
        }
        var specs: [String: VariableSpec] = [:]
        for name in names where Bool.random(using: &random) {
            specs[name] = try VariableSpec(
                pattern: patterns.randomElement(using: &random)!, required: Int.random(in: 0..<4, using: &random) > 0,
                defaultValue: Bool.random(using: &random) ? nil : values.randomElement(using: &random)!)
        }
        return (source, specs)
    }

    /// What the renderer says: the URI, or the message of its refusal.
    static func expected(_ renderer: TemplateRenderer, _ values: [String: String]) -> String {
        do {
            return try renderer.render { name in values[name].map { TemplateValue($0, source: "source of \(name)") } }
        } catch {
            return "refused: " + error.message
        }
    }

    @Test("same URI or same refusal, for generated templates and values, fixed or per render")
    func sameAsRenderer() throws {
        var random = SplitMix(seed: 0x5EED_C0DE)
        var rendered = 0
        var refused = 0
        for _ in 0..<3000 {
            let (source, specs) = try Self.template(&random)
            guard let template = try? Template(source) else { continue }
            let renderer = TemplateRenderer(template: template, specs: specs)
            var given: [String: String] = [:]
            for name in Self.names where Int.random(in: 0..<5, using: &random) > 0 {
                given[name] = Self.values.randomElement(using: &random)!
            }
            // Each name fixed at compile time, left to a later binding, or left to the render.
            let placement = Dictionary(uniqueKeysWithValues: Self.names.map { ($0, Int.random(in: 0..<3, using: &random)) })
            let slots = Dictionary(uniqueKeysWithValues: Self.names.enumerated().map { ($1, $0) })
            let fixed = { (name: String) in given[name].map { TemplateValue($0, source: "source of \(name)") } }
            var compiled = CompiledTemplate(renderer) { name in placement[name] == 0 ? .fixed(fixed(name)) : .slot(slots[name]!) }
            compiled = compiled.binding { slot, name in placement[name] == 1 ? .fixed(fixed(name)) : .slot(slot) }
            var values = CompiledTemplate.Values()
            for name in Self.names where placement[name] == 2 {
                if let value = given[name] { values.set(slots[name]!, value) }
            }
            var uri: [UInt8] = []
            let got: String
            do {
                try compiled.render(&values, into: &uri) { slot in "source of \(Self.names[slot])" }
                got = String(decoding: uri, as: UTF8.self)
                rendered += 1
            } catch {
                got = "refused: " + error.message
                refused += 1
            }
            #expect(got == Self.expected(renderer, given), "\(source) with \(given), placed \(placement)")
        }
        // Both sides of the property are exercised.
        #expect(rendered > 500 && refused > 500, "rendered \(rendered), refused \(refused)")
    }

    @Test("a template whose values are all known renders them folded in")
    func constant() throws {
        let renderer = TemplateRenderer(template: try Template("skd://{a}?b={b|url}"))
        let compiled = CompiledTemplate(renderer) { name in .fixed(TemplateValue(name + " 1", source: "x")) }
        var uri: [UInt8] = []
        var values = CompiledTemplate.Values()
        try compiled.render(&values, into: &uri) { _ in "" }
        #expect(String(decoding: uri, as: UTF8.self) == "skd://a%201?b=b%201")
    }

    @Test("a number given as digits (a key period's index) renders as its decimal text, whatever its size or sign")
    func decimal() throws {
        let renderer = TemplateRenderer(template: try Template("skd://x?period={key_index}&after"))
        let compiled = CompiledTemplate(renderer) { _ in .slot(0) }
        var values = CompiledTemplate.Values()
        var uri: [UInt8] = []
        var random = SplitMix(seed: 10)
        let numbers =
            [0, 7, 10, 99, 100, 12_345, Int.max, -1, -42, Int.min]
            + (0..<200).map { _ in Int(bitPattern: UInt(random.next())) >> Int(random.next() % 64) }
        for number in numbers {
            values.removeAll()
            values.set(0, decimal: number)
            try compiled.render(&values, into: &uri) { _ in "" }
            #expect(String(decoding: uri, as: UTF8.self) == "skd://x?period=\(number)&after")
        }
    }

    @Test("a value pattern matches the same on bytes as Swift's Regex")
    func patternAgreement() throws {
        var random = SplitMix(seed: 42)
        for pattern in Self.patterns.compactMap({ $0 }) + ["(a|ab)(c|bcd)(d*)", "[A-Za-z0-9._~:@/-]{1,256}", "x?y+z{2,3}"] {
            let compiled = try ValuePattern(pattern)
            for _ in 0..<300 {
                let alphabet = Array("abcdxyz09-_ /:\u{7F}\u{1F}é")
                let value = String((0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                let candidates = [value] + Self.values
                for candidate in candidates {
                    #expect(compiled.matches(candidate) == compiled.swiftMatches(candidate), "\(pattern) on \(candidate.debugDescription)")
                }
            }
        }
    }
}

@Suite("compiled templates: what a review found")
struct CompiledTemplateReviewTests {
    @Test("a pattern that reads otherwise once anchored is refused, as Swift's Regex refuses it")
    func strayParenthesis() {
        #expect(throws: (any Error).self) { try ValuePattern("[0-9]{3})|(.*") }
    }

    @Test("bytes that are not UTF-8 render as the renderer renders their decoding")
    func invalidUTF8() throws {
        let renderer = TemplateRenderer(template: try Template("skd://x/{v|url}/{w}"))
        let compiled = CompiledTemplate(renderer) { $0 == "v" ? .slot(0) : .slot(1) }
        let bytes: [UInt8] = [0x61, 0x80, 0x62, 0xC3]
        var values = CompiledTemplate.Values()
        bytes.withUnsafeBufferPointer { values.set(0, $0) }
        bytes.withUnsafeBufferPointer { values.set(1, $0) }
        var uri: [UInt8] = []
        try compiled.render(&values, into: &uri) { _ in "test" }
        let text = String(decoding: bytes, as: UTF8.self)
        let expected = try renderer.render { _ in TemplateValue(text, source: "test") }
        #expect(String(decoding: uri, as: UTF8.self) == expected)
    }
}
