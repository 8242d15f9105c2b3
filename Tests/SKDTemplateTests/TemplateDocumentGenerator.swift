import SKDTestSupport

/// Writes random template-like YAML documents: what people put in template files (mappings of settings,
/// variables with patterns and defaults, host lists), written every way YAML allows and some ways it does
/// not: plain, single- and double-quoted scalars with escapes, literal and folded blocks with chomping and
/// indentation indicators, flow collections over one or several lines, comments, blank lines, odd
/// indentation, CRLF, Unicode. Seeded, so every run writes the same documents.
struct TemplateDocumentGenerator {
    private var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let keys = [
        "name", "uri", "description", "method", "keyformat", "keyformatversions", "session_keys", "variables", "license",
        "allow_hosts", "content_id", "pattern", "default", "secret", "required", "token", "x", "a b", "日本",
        "key-with-dash", "'quoted key'", "\"dq key\"", "k.v", "_private", "2nd",
    ]

    static let plainTexts = [
        "entitlement", "skd://{content_id}", "skd://{entitlement_url|strip_scheme}?cid={content_id|url}", "SAMPLE-AES",
        "com.apple.streamingkeydelivery", "true", "false", "True", "null", "~", "1", "0x1F", "1.5", "-1", "a-b", "a b c",
        "a:b", "x #not a comment", "x#y", "日本語 テキスト", "https://lic.example.com/fps", "[^/]+", "[A-Za-z0-9._-]{1,128}",
        "*.example.com", "a, b", "@x", "`x", "%x", "!x", "&x", "*x", "|x", ">x", "? x", "- x", "-x", "--- x", "... x",
        "{x}", "[a]", "a: b", "\"x", "'x", "x'y", "x\"y", "a\tb", "é", "😀 emoji", "a  b", "a ", "-", "?", ":", "a:", "x: ",
        ":x", "a,b", "a]b", "a}b", "a{b", "#", "%", "\\", "\\n",
    ]

    static let quotedTexts = [
        "skd://{content_id}", "a'b", "it's", "\"", "a \"b\" c", "#not a comment", "  padded  ", "", "a\\b", "日本",
        "tab\there", "x: y", "- x", "[a, b]", "{k: v}", "line one", "🎬",
    ]

    static let escapes = [
        "\\n", "\\t", "\\\"", "\\\\", "\\u00e9", "\\x41", "\\U0001F600", "\\/", "\\ ", "\\0", "\\e", "\\_", "\\N", "\\L",
        "\\P", "\\a", "\\b", "\\v", "\\f", "\\r", "\\q", "\\u12", "\\xZZ",
    ]

    mutating func document() -> String {
        let unit = pick([2, 2, 2, 3, 4, 1])
        var lines: [String] = []
        if chance(10) { lines.append(pick(["---", "--- # a template", "# comment first", "%YAML 1.2\n---"])) }
        switch below(10) {
        case 0: lines += sequence(indent: 0, unit: unit, depth: 0)
        case 1: lines.append(flow(depth: 0))
        default: lines += mapping(indent: 0, unit: unit, depth: 0, top: true)
        }
        if chance(5) { lines.append(pick(["...", "---", "# end", "", "  "])) }
        let crlf = chance(10)
        var text = lines.joined(separator: crlf ? "\r\n" : "\n")
        if chance(80) { text += crlf ? "\r\n" : "\n" }
        return text
    }

    private mutating func key() -> String { pick(Self.keys) }

    private mutating func comment() -> String { chance(15) ? pick([" # comment", "  #c", " #", " # x: y"]) : "" }

    private mutating func mapping(indent: Int, unit: Int, depth: Int, top: Bool = false) -> [String] {
        var lines: [String] = []
        var used: Set<String> = []
        for _ in 0..<(1 + below(top ? 6 : 4)) {
            var name = key()
            if used.contains(name), chance(90) { continue }
            used.insert(name)
            if chance(3) { name += " " }
            let pad = String(repeating: " ", count: indent)
            if chance(8) { lines.append(pad + "# " + pick(["a comment", "variables:", "- x"])) }
            if chance(6) { lines.append(chance(70) ? "" : pick(["  ", " # x"])) }
            lines += value(for: pad + name + ":", indent: indent, unit: unit, depth: depth)
        }
        return lines
    }

    private mutating func sequence(indent: Int, unit: Int, depth: Int) -> [String] {
        var lines: [String] = []
        let pad = String(repeating: " ", count: indent)
        for _ in 0..<(1 + below(4)) {
            if depth < 2, chance(20) {
                // A compact mapping in a sequence: `- k: v` then `  k: v`.
                let inner = mapping(indent: indent + 2, unit: unit, depth: depth + 1)
                if let first = inner.first {
                    lines.append(pad + "- " + first.dropFirst(indent + 2))
                    lines += inner.dropFirst()
                }
            } else {
                lines += value(for: pad + "-", indent: indent, unit: unit, depth: depth)
            }
        }
        return lines
    }

    /// `head` (a key with its colon, or a `-`) followed by a value of any kind.
    private mutating func value(for head: String, indent: Int, unit: Int, depth: Int) -> [String] {
        let choice = depth >= 3 ? below(5) : below(9)
        switch choice {
        case 0: return [head + " " + plain() + comment()]
        case 1: return [head + " " + singleQuoted() + comment()]
        case 2: return doubleQuoted(head: head, indent: indent + unit)
        case 3: return blockScalar(head: head, indent: indent + (chance(90) ? unit : 0))
        case 4: return [head + " " + flow(depth: depth) + comment()] + (chance(10) ? [] : [])
        case 5: return [head + comment()] + mapping(indent: indent + unit, unit: unit, depth: depth + 1)
        case 6:
            // Sequences under a key often sit at the key's own indentation.
            let inner = head.hasSuffix(":") && chance(50) ? indent : indent + unit
            return [head + comment()] + sequence(indent: inner, unit: unit, depth: depth + 1)
        case 7: return multiLineFlow(head: head, indent: indent + unit, depth: depth)
        default: return [head + (chance(50) ? "" : " ") + comment()]
        }
    }

    private mutating func plain() -> String { pick(Self.plainTexts) }

    private mutating func singleQuoted() -> String {
        "'" + pick(Self.quotedTexts).replacingOccurrences(of: "'", with: chance(90) ? "''" : "'") + "'"
    }

    private mutating func doubleQuoted(head: String, indent: Int) -> [String] {
        var text = pick(Self.quotedTexts).replacingOccurrences(of: "\\", with: "\\\\")
        text = text.replacingOccurrences(of: "\"", with: chance(95) ? "\\\"" : "\"")
        if chance(50) { text += pick(Self.escapes) }
        if chance(20) {
            // Over several lines: folded, or continued with a backslash.
            let pad = String(repeating: " ", count: indent)
            return [
                head + " \"" + text + pick(["", "\\", " "]),
                chance(20) ? "" : pad + pick(Self.quotedTexts.filter { !$0.contains("\"") && !$0.contains("\\") }) + "\"" + comment(),
            ]
        }
        return [head + " \"" + text + "\"" + comment()]
    }

    private mutating func blockScalar(head: String, indent: Int) -> [String] {
        let header = pick(["|", "|-", "|+", ">", ">-", ">+", "|2", "|-2", ">1", "| # a comment", "|1-", ">+2"])
        var lines = [head + " " + header]
        let pad = String(repeating: " ", count: max(indent, 0))
        for _ in 0..<(1 + below(4)) {
            switch below(8) {
            case 0: lines.append("")
            case 1: lines.append(pad + "  more indented " + plain())
            case 2: lines.append(pad + "# not a comment inside a block")
            case 3: lines.append(pad + " ")
            default: lines.append(pad + plain())
            }
        }
        if chance(30) { lines.append("") }
        return lines
    }

    private mutating func flow(depth: Int) -> String {
        if depth > 2 || chance(30) {
            switch below(4) {
            case 0: return singleQuoted()
            case 1:
                return "\""
                    + pick(Self.quotedTexts).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            default: return pick(["a", "b c", "skd://x", "true", "1", "日本", "x-y", "a:b", "*.example.com", "k: v", "-x"])
            }
        }
        let items = (0..<below(4)).map { _ in flow(depth: depth + 1) }
        let space = chance(50) ? " " : ""
        if chance(60) {
            return "[" + space + items.joined(separator: "," + space) + (chance(10) ? "," : "") + space + "]"
        }
        let pairs = items.enumerated().map { "k\($0.offset)" + pick([": ", ":", " : "]) + $0.element }
        return "{" + space + pairs.joined(separator: "," + space) + (chance(10) ? "," : "") + space + "}"
    }

    private mutating func multiLineFlow(head: String, indent: Int, depth: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let opening = chance(60) ? "[" : "{"
        let closing = opening == "[" ? "]" : "}"
        var lines = [head + " " + opening]
        for index in 0..<(1 + below(3)) {
            let item = opening == "[" ? flow(depth: depth + 1) : "k\(index): " + flow(depth: depth + 1)
            lines.append(pad + item + ",")
        }
        lines.append(String(repeating: " ", count: max(indent - (chance(80) ? 0 : 1), 0)) + closing)
        return lines
    }
}
