import SKDTemplate
import Testing

@Suite("YAML for template files")
struct YAMLReaderTests {
    /// A document as plain values, for comparing.
    indirect enum Value: Equatable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
        case text(String)
        case list([Value])
        case map([String: Value])

        init(stringLiteral value: String) { self = .text(value) }
        init(arrayLiteral elements: Value...) { self = .list(elements) }
        init(dictionaryLiteral elements: (String, Value)...) { self = .map(Dictionary(uniqueKeysWithValues: elements)) }

        init(_ node: YAMLNode) {
            switch node {
            case .scalar(let text, _, _): self = .text(text)
            case .sequence(let items, _): self = .list(items.map(Value.init))
            case .mapping(let entries, _): self = .map(Dictionary(uniqueKeysWithValues: entries.map { ($0.key.string!, Value($0.value)) }))
            }
        }

        subscript(key: String) -> Value? {
            if case .map(let map) = self { return map[key] }
            return nil
        }
    }

    func read(_ text: String) throws -> Value? { try YAMLReader.read(text).map(Value.init) }

    @Test("block mappings, sequences and scalars of every kind")
    func blocks() throws {
        let document = """
            # a template
            name: entitlement   # trailing comment
            quoted: "a \\"b\\" \\u00e9 \\x41 # not a comment"
            single: 'it''s'
            colon: skd://{id}?cid=a:b
            empty:
            nested:
              inner: value
              deeper:
                - one
                - key: v
                  other: w
                -
                  - x
            list:
            - a
            - b
            folded: >-
              one
              two

              three
            literal: |
              line 1
               line 2
            keep: |+
              x

            last: end
            """
        let value = try #require(try read(document))
        #expect(value["name"] == "entitlement")
        #expect(value["quoted"] == "a \"b\" é A # not a comment")
        #expect(value["single"] == "it's")
        #expect(value["colon"] == "skd://{id}?cid=a:b")
        #expect(value["empty"] == "")
        #expect(value["list"] == ["a", "b"])
        #expect(value["folded"] == "one two\nthree")
        #expect(value["literal"] == "line 1\n line 2\n")
        #expect(value["keep"] == "x\n\n")
        #expect(value["last"] == "end")
        #expect(value["nested"] == ["inner": "value", "deeper": ["one", ["key": "v", "other": "w"], ["x"]]])
    }

    @Test("flow collections, over several lines, and JSON")
    func flow() throws {
        #expect(try read("hosts: [a.example, \"b.example\", 'c']") == ["hosts": ["a.example", "b.example", "c"]])
        let json = """
            {
              "name": "j",
              "uri": "skd://{kid}",
              "variables": {"kid": {"pattern": "[0-9a-f]{32}", "secret": false}},
              "license": {"allow_hosts": []}
            }
            """
        #expect(
            try read(json) == [
                "name": "j", "uri": "skd://{kid}", "variables": ["kid": ["pattern": "[0-9a-f]{32}", "secret": "false"]],
                "license": ["allow_hosts": []],
            ])
    }

    @Test("booleans are plain true and false only")
    func booleans() throws {
        let node = try #require(try YAMLReader.read("a: true\nb: \"true\"\nc: yes\nd: False"))
        guard case .mapping(let entries, _) = node else { throw YAMLError(message: "not a mapping", mark: node.mark) }
        #expect(entries.map(\.value.bool) == [true, nil, nil, false])
    }

    @Test("marks are 1-based line and column")
    func marks() throws {
        let node = try #require(try YAMLReader.read("a:\n  b: [x, y]\n"))
        guard case .mapping(let outer, _) = node, case .mapping(let inner, _) = outer[0].value,
            case .sequence(let items, let mark) = inner[0].value
        else { throw YAMLError(message: "unexpected shape", mark: node.mark) }
        #expect(mark == YAMLMark(line: 2, column: 6))
        #expect(items[1].mark == YAMLMark(line: 2, column: 10))
    }

    @Test(
        "what template files do not use is refused with a location",
        arguments: [
            ("a: &x 1\nb: *x\n", 1, 4, "anchors"),
            ("a: !!str 1\n", 1, 4, "tags"),
            ("a: 1\n---\nb: 2\n", 2, 1, "one YAML document"),
            ("a: 1\na: 2\n", 2, 1, "appears twice"),
            ("a:\n\tb: 1\n", 2, 1, "tabs"),
            ("a: \"open\n", 1, 4, "no closing"),
            ("a: [1, 2\nb: 3\n", 1, 4, "never closed"),
            ("a: {b 1}\n", 1, 8, "expected ':'"),
            ("a: \"x\" y\n", 1, 8, "after the closing quote"),
            ("a: \"\\q\"\n", 1, 5, "unknown escape"),
            ("a: 1\n  b: 2\n", 2, 3, "indentation"),
        ])
    func refused(text: String, line: Int, column: Int, message: String) {
        #expect {
            try YAMLReader.read(text)
        } throws: { error in
            let error = error as! YAMLError
            let ok = error.mark.line == line && error.mark.column == column && error.message.contains(message)
            if !ok { print("got \(error) for \(text.debugDescription)") }
            return ok
        }
    }

    /// Found by the `template` fuzz target: ten thousand `[` overflowed the stack.
    @Test("nesting deeper than the limit is an error with its place, not a crash")
    func deepNesting() throws {
        let flow = "uri: " + String(repeating: "[", count: 10_000)
        #expect {
            try YAMLReader.read(flow)
        } throws: { error in
            (error as? YAMLError)?.message == "nested more than 64 levels deep"
        }
        var block = ""
        for level in 0..<200 { block += String(repeating: " ", count: level) + "k\(level):\n" }
        block += String(repeating: " ", count: 200) + "end"
        #expect(throws: YAMLError.self) { try YAMLReader.read(block) }
        let fine = String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        #expect(try YAMLReader.read("a: " + fine) != nil, "ordinary nesting still reads")
    }

    // Found by the differential test against ruamel.yaml (YAMLDifferentialTests): each read differently before.

    @Test("a CRLF file is read line by line (CR LF is one Character: the whole file was one line)")
    func crlf() throws {
        let value = try read("name: a # comment\r\nuri: \"skd://{id}\"\r\nvariables:\r\n  id: {pattern: \"[a-z]+\"}\r\n")
        #expect(value == ["name": "a", "uri": "skd://{id}", "variables": ["id": ["pattern": "[a-z]+"]]])
        #expect(throws: YAMLError.self) { try read("name: a\rb\n") }
    }

    @Test("a block scalar keeps a final line break only if the file has one; spaces past its indentation are text")
    func blockScalarEnds() throws {
        #expect(try read("k: |\n  a\n  b") == ["k": "a\nb"])
        #expect(try read("k: |\n  a\n  b\n") == ["k": "a\nb\n"])
        #expect(try read("k: |+\n  a\n\n") == ["k": "a\n\n"])
        #expect(try read("k: |+\n  a\n   \n") == ["k": "a\n \n"])
        #expect(try read("k: >\n  a\n\n   b\n") == ["k": "a\n\n b\n"])
        #expect(try read("k: |2\n   a\n") == ["k": " a\n"])
    }

    @Test("a block scalar in a sequence is a block scalar, not the text '|'")
    func blockScalarInSequence() throws {
        #expect(try read("- |\n  a\n- >-\n  b\n  c\n") == ["a\n", "b c"])
    }

    @Test(
        "what YAML reads as structure is refused, not taken as text",
        arguments: [
            "k: | x\n", "- ?\n", "k: -\n", "k: a: b\n", "- |x\n", "[a, , b]\n", "k: a\tb\n", "--- |\n  a\n",
            "k: >\n   \n  a\n",
        ])
    func refusedStructure(text: String) {
        #expect(throws: YAMLError.self) { try read(text) }
    }
}
