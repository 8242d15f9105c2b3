import HLS
import Testing

@Suite("Editing tag lines")
struct TagLineEditorTests {
    func editor(_ line: String) throws -> TagLineEditor {
        let attributes = try #require(parseTag(line).tag.attributes)
        return TagLineEditor(line: Array(line.utf8), attributes: attributes)
    }

    func text(_ editor: TagLineEditor) -> String { String(decoding: editor.render(), as: UTF8.self) }

    @Test("replacing one value keeps every other byte")
    func replaceKeepsTheRest() throws {
        var editor = try editor(
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMATVERSIONS="1",URI="skd://old",X-CUSTOM=0x0A,KEYFORMAT="com.apple.streamingkeydelivery""#)
        try editor.set("URI", .quotedString("skd://new-id"))
        #expect(
            text(editor)
                == #"#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMATVERSIONS="1",URI="skd://new-id",X-CUSTOM=0x0A,KEYFORMAT="com.apple.streamingkeydelivery""#
        )
    }

    @Test("an unedited line renders to its original bytes")
    func noEdits() throws {
        let line = #"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x00000000000000000000000000000001"#
        let editor = try editor(line)
        #expect(!editor.hasChanges)
        #expect(text(editor) == line)
    }

    @Test("missing attributes are appended, removed ones take their comma with them")
    func appendAndRemove() throws {
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,IV=0x00000000000000000000000000000001,URI="skd://a""#)
        editor.remove("IV")
        try editor.set("KEYFORMAT", .quotedString("com.apple.streamingkeydelivery"))
        try editor.set("METHOD", .enumeratedString("SAMPLE-AES"))
        #expect(text(editor) == #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery""#)
        var last = try self.editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        last.remove("URI")
        #expect(text(last) == "#EXT-X-KEY:METHOD=SAMPLE-AES")
    }

    @Test(
        "values that would change the line's structure are refused",
        arguments: [
            "a\"b", "a\nb", "a\rb", "x\",URI=\"evil", "a\u{0}b", "a\u{85}b",
        ])
    func hostileQuoted(value: String) throws {
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        #expect(throws: UnwritableAttributeValue.self) { try editor.set("URI", .quotedString(value)) }
        #expect(!editor.hasChanges)
    }

    @Test("unquoted values may not hold separators", arguments: ["A,B", "A B", "", "A\"", "A\n"])
    func hostileUnquoted(value: String) throws {
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        #expect(throws: UnwritableAttributeValue.self) { try editor.set("METHOD", .enumeratedString(value)) }
        #expect(!editor.hasChanges)
    }

    @Test("one value replaced without an editor: the same bytes, the same checks")
    func replacingValue() throws {
        let line = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#
        let uri = try #require(parseTag(line).tag.attributes?["URI"])
        let replaced = try TagLineEditor.replacingValue(of: uri, with: .quotedString("skd://new-id"))
        var editor = try editor(line)
        try editor.set("URI", .quotedString("skd://new-id"))
        #expect(replaced == editor.render())
        #expect(throws: UnwritableAttributeValue.self) {
            try TagLineEditor.replacingValue(of: uri, with: .quotedString("x\",URI=\"evil\n#EXT-X-ENDLIST"))
        }
    }

    @Test(
        "a quoted value given as bytes: appended as the editor writes it, checked the same way",
        arguments: ["skd://new-id?cid=a%20b", "skd://caf\u{E9}", "x\",URI=\"evil", "a\nb", "a\u{85}b", ""])
    func appendReplacingValue(value: String) throws {
        let line = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#
        let uri = try #require(parseTag(line).tag.attributes?["URI"])
        var editor = try editor(line)
        let expected: [UInt8]? = (try? editor.set("URI", .quotedString(value))).map { editor.render() }
        var output: [UInt8] = Array("kept ".utf8)
        var bytes = value
        let appended = bytes.withUTF8 { value in
            Array(line.utf8).withUnsafeBytes { line in
                (try? TagLineEditor.appendReplacingValue(at: uri.valueRange, named: "URI", in: line, withQuotedString: value, to: &output))
                    != nil
            }
        }
        if let expected {
            #expect(appended && output == Array("kept ".utf8) + expected)
        } else {
            // Refused: nothing appended, as the editor changes nothing.
            #expect(!appended && output == Array("kept ".utf8))
        }
    }

    /// The bytes of a value are looked at eight at a time: every byte value, at every place in a word and
    /// in the tail after the last whole word, is told apart as one at a time would.
    @Test("every byte, wherever it falls against the words: printable ASCII but a quote is written as it is")
    func appendReplacingValueByteByByte() throws {
        let line = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#
        let uri = try #require(parseTag(line).tag.attributes?["URI"])
        let lineBytes = Array(line.utf8)
        for byte in UInt8.min...UInt8.max {
            for position in [0, 1, 6, 7, 8, 9, 15, 16, 19] {
                var value = Array(repeating: UInt8(ascii: "a"), count: 20)
                value[position] = byte
                var output: [UInt8] = []
                let appended = value.withUnsafeBufferPointer { value in
                    lineBytes.withUnsafeBytes { line in
                        (try? TagLineEditor.appendReplacingValue(
                            at: uri.valueRange, named: "URI", in: line, withQuotedString: value, to: &output)) != nil
                    }
                }
                let asIs =
                    Array(lineBytes[..<uri.valueRange.lowerBound]) + [UInt8(ascii: "\"")] + value + [UInt8(ascii: "\"")]
                    + Array(lineBytes[uri.valueRange.upperBound...])
                if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\"") {
                    #expect(appended && output == asIs, "byte \(byte) at \(position)")
                } else if byte < 0x80 {
                    #expect(!appended && output.isEmpty, "byte \(byte) at \(position)")
                } else {
                    // Not UTF-8 alone: taken as the replacement character, never as the raw byte.
                    #expect(output != asIs, "byte \(byte) at \(position)")
                }
            }
        }
    }

    @Test("hexadecimal-sequences and names are checked too")
    func hexadecimalAndNames() throws {
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        #expect(throws: UnwritableAttributeValue.self) { try editor.set("IV", .hexadecimalSequence("0x12,URI=\"x\"")) }
        #expect(throws: UnwritableAttributeValue.self) { try editor.set("IV", .hexadecimalSequence("12")) }
        #expect(throws: UnwritableAttributeValue.self) { try editor.set("X=1,Y", .quotedString("a")) }
        #expect(throws: UnwritableAttributeValue.self) { try editor.set("uri", .quotedString("a")) }
        #expect(!editor.hasChanges)
        try editor.set("IV", .hexadecimalSequence("0x0123456789abcdef0123456789ABCDEF"))
        #expect(text(editor) == #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",IV=0x0123456789abcdef0123456789ABCDEF"#)
    }
}

@Suite("Writing tag lines")
struct TagLineWriterTests {
    @Test("a key line is written in the order given, each value as its type")
    func keyLine() throws {
        var writer = TagLineWriter(tag: "EXT-X-KEY")
        try writer.append("METHOD", .enumeratedString("SAMPLE-AES"))
        try writer.append("URI", .quotedString("skd://lic.example.com/fps?cid=title%201"))
        try writer.append("IV", .hexadecimalSequence("0x00000000000000000000000000000001"))
        try writer.append("KEYFORMAT", .quotedString("com.apple.streamingkeydelivery"))
        let line = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            line
                == #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=title%201",IV=0x00000000000000000000000000000001,KEYFORMAT="com.apple.streamingkeydelivery""#
        )
        // What a reader makes of it: one tag, the same four attributes.
        let attributes = try #require(parseTag(line).tag.attributes)
        #expect(attributes.count == 4)
        #expect(attributes["URI"]?.text == "skd://lic.example.com/fps?cid=title%201")
        #expect(String(decoding: TagLineWriter.line(tag: "EXT-X-VERSION", decimalInteger: 5), as: UTF8.self) == "#EXT-X-VERSION:5")
    }

    /// Every value a hostile template or catalogue could hold that would end the quoted-string, the
    /// attribute or the line.
    static let hostile = [
        "com.apple.streamingkeydelivery\",X=\"1\n#EXT-X-ENDLIST", "a\"b", "a\nb", "a\rb", "a\r\n#EXT-X-KEY:METHOD=NONE",
        "a\u{0}b", "a\u{7F}b", "a\u{85}b", "a\u{9F}b", "\u{1B}[31m", "tab\there",
    ]

    @Test("a value that would break the line is refused, and the line stays as it was", arguments: hostile)
    func refused(value: String) throws {
        var writer = TagLineWriter(tag: "EXT-X-SESSION-KEY")
        try writer.append("METHOD", .enumeratedString("SAMPLE-AES"))
        let before = writer.bytes
        #expect(throws: UnwritableAttributeValue.self) { try writer.append("KEYFORMAT", .quotedString(value)) }
        #expect(throws: UnwritableAttributeValue.self) { try writer.append("METHOD", .enumeratedString(value)) }
        #expect(writer.bytes == before)
    }

    @Test("the refusal says which attribute, which type and which character")
    func message() {
        var writer = TagLineWriter(tag: "EXT-X-KEY")
        #expect {
            try writer.append("KEYFORMAT", .quotedString("a\nb"))
        } throws: { error in
            (error as? UnwritableAttributeValue)?.description == "cannot write KEYFORMAT: a quoted-string cannot hold U+000A"
        }
        #expect {
            try writer.append("METHOD", .enumeratedString("SAMPLE-AES,X"))
        } throws: { error in
            (error as? UnwritableAttributeValue)?.description == "cannot write METHOD: an enumerated-string cannot hold U+002C"
        }
    }
}
