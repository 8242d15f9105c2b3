import SKDTemplate
import SKDTestSupport
import Testing

@testable import SKDKeys
@testable import SKDPack

/// The byte matcher behind `--match` and `--path-pattern` must agree with Swift's `Regex` on every
/// pattern it accepts: checked on fixed cases, and on thousands of random patterns and inputs.
@Suite("--match patterns: the byte matcher agrees with Swift's Regex")
struct ByteRegexTests {
    @Test(
        "migration patterns",
        arguments: [
            (
                #"skd://old-license\.example\.com/fps\?cid=(?<cid>[^&]+)&kid=(?<kid>[0-9a-f]+)"#,
                "skd://old-license.example.com/fps?cid=title-0001&kid=00000000000000000000000000000007"
            ),
            (#"(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)"#, "skd://new-lic.example.com/fps?cid=legacy-0042"),
            (#"(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)"#, "skd://legacy-0042"),
            (#"skd://(?<host>[\w.-]+)(:(?<port>\d{1,5}))?/(?<path>.*?)(\?|$)"#, "skd://h.example:8443/a/b?c"),
            (#"(?<title>title-\d+)/(?<name>[^/]+)\.m3u8$"#, "library/title-7/video_hd.m3u8"),
            (#"(?<a>a|ab)(?<b>c|bcd)"#, "abcd"),
            (#"(?<x>a*?)b"#, "aaab"),
            (#"(?<x>(a|b){2,3})"#, "abab"),
            (#"^(?<x>[^x]*)$"#, "no such letter here"),
            (#"(?<never>z)?(?<any>.)"#, "q"),
        ])
    func fixed(pattern: String, text: String) throws {
        let compiled = try NamedPattern(pattern)
        #expect(ByteRegex.compile(pattern) != nil, "the byte matcher should take \(pattern)")
        #expect((try? Regex(pattern)) != nil, "Swift's Regex must accept what the byte matcher takes")
        #expect(compiled.groups(in: text) == compiled.swiftRegexGroups(in: text))
        #expect(compiled.groups(in: text) != nil)
    }

    @Test(
        "what the byte matcher leaves to Swift's Regex",
        arguments: [
            #"(?=a)a"#, #"(a)\1"#, #"\bword"#, #"\p{L}+"#, #"(?i)abc"#, #"a++"#, #"[[:digit:]]"#, "é",
        ])
    func unsupported(pattern: String) throws {
        #expect(ByteRegex.compile(pattern) == nil)
        let compiled = try NamedPattern(pattern)
        #expect(compiled.groups(in: "aab word é 123") == compiled.swiftRegexGroups(in: "aab word é 123"))
    }

    /// What inputs are made of: the pattern's own characters, every ASCII line terminator and space
    /// (which `.`, `\s` and `$` treat specially), and non-ASCII scalars of two, three and four bytes, NEL,
    /// LS and PS among them (which send the match to Swift's Regex).
    static let alphabet: [Unicode.Scalar] =
        Array("ab/.?&=-c1".unicodeScalars)
        + ["\n", "\r", "\u{0B}", "\u{0C}", "\t", " ", "\u{85}", "\u{2028}", "\u{2029}", "é", "日", "😀"]

    @Test("random patterns and inputs")
    func random() throws {
        var generator = SplitMix(seed: 0x5EED)
        // Literal runs ("ab", "a/b", and pieces side by side) are compared at once by the byte matcher.
        // `^` inside groups and alternatives too: a pattern whose every match starts with one is tried at the
        // text's start only.
        let pieces = ["a", "b", "/", "\\.", "\\?", "&", "=", "[ab]", "[^/]", "[a-c0-9]", "\\d", "\\w", ".", "-", "ab", "a/b", "^", "^a"]
        let quantifiers = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{1,2}", "{2}", "{0,}", "{2,1500}", "{1001,}"]
        var compared = 0
        for _ in 0..<600 {
            var pattern = Bool.random(using: &generator) ? "^" : ""
            var groups = 0
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                var atom = pieces.randomElement(using: &generator)!
                switch Int.random(in: 0..<6, using: &generator) {
                case 0:
                    groups += 1
                    atom =
                        "(?<g\(groups)>\(atom)\(quantifiers.randomElement(using: &generator)!)|\(pieces.randomElement(using: &generator)!))"
                case 1:
                    groups += 1
                    atom = "(?<g\(groups)>\(atom)\(pieces.randomElement(using: &generator)!))"
                case 2: atom = "(?:\(atom)|\(pieces.randomElement(using: &generator)!))"
                default: break
                }
                pattern += atom + quantifiers.randomElement(using: &generator)!
            }
            if Bool.random(using: &generator) { pattern += "$" }
            guard (try? Regex(pattern)) != nil, let compiled = try? NamedPattern(pattern), ByteRegex.compile(pattern) != nil
            else { continue }
            for _ in 0..<8 {
                var text = ""
                for _ in 0..<Int.random(in: 0...12, using: &generator) {
                    text.unicodeScalars.append(Self.alphabet.randomElement(using: &generator)!)
                }
                compared += 1
                #expect(compiled.groups(in: text) == compiled.swiftRegexGroups(in: text), "\(pattern) on \(text)")
            }
        }
        print("--match differential: \(compared) cases compared with Swift's Regex")
        #expect(compared > 3000)
    }

    @Test("`.` refuses every line terminator Swift's does, and nothing else", arguments: alphabet)
    func dot(scalar: Unicode.Scalar) throws {
        let compiled = try NamedPattern("a(?<x>.)b")
        let text = "a" + String(scalar) + "b"
        #expect(compiled.groups(in: text) == compiled.swiftRegexGroups(in: text))
        let terminators: Set<Unicode.Scalar> = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        #expect((compiled.groups(in: text) == nil) == terminators.contains(scalar))
    }

    @Test("nested counted repetitions too large to unroll are left to Swift's Regex, at once")
    func nestedCounts() throws {
        // (A greedy run of one byte is one instruction however long, so the repetitions around it decide.)
        for pattern in ["((a{1,1000}){1,1000}){1,1000}", "(((a{2,999}?){999}){999}){999}", "(a{0,999}?b{0,999}){999}"] {
            #expect(ByteRegex.compile(pattern) == nil)
            let compiled = try NamedPattern(pattern)
            #expect(compiled.groups(in: "aab") == compiled.swiftRegexGroups(in: "aab"))
        }
        #expect(ByteRegex.compile("(?<x>a{1,50}){1,50}") != nil)
    }

    /// A shipped template's token pattern: one byte class counted in thousands. The byte matcher runs it (a
    /// template's start-up otherwise compiles Swift's Regex, a third of a small run's instructions), and says
    /// what Swift's says at every edge of its count.
    @Test("a run of one class with counts over a thousand is the byte matcher's, and agrees with Swift's Regex")
    func longCountedRuns() throws {
        for pattern in ["[A-Za-z0-9._~%+/=-]{16,4096}", "^(?:[a-c]{1001})$", "x{2000,}y", "(?<t>[^&]{3,5000})&"] {
            #expect(ByteRegex.compile(pattern) != nil, "\(pattern)")
            let compiled = try NamedPattern(pattern)
            for count in [0, 2, 3, 15, 16, 17, 1000, 1001, 1002, 1999, 2000, 2001, 4095, 4096, 4097, 5000, 5001] {
                for text in [
                    String(repeating: "a", count: count), "x" + String(repeating: "x", count: count) + "y&",
                    String(repeating: "b", count: count) + "&",
                ] {
                    #expect(compiled.groups(in: text) == compiled.swiftRegexGroups(in: text), "\(pattern) on \(count)")
                }
            }
        }
    }
}

@Suite("--match patterns Swift's Regex rejects")
struct InvalidPatternTests {
    @Test("are errors, with Swift's reason", arguments: ["(?<a>x)(?<a>y)", "(?<1a>x)", "[z-a]", "(unclosed", "a{2,1}"])
    func invalid(pattern: String) {
        #expect(throws: (any Error).self) { try NamedPattern(pattern) }
    }
}
