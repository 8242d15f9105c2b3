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
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMATVERSIONS="1",URI="skd://old",X-CUSTOM=0x0A,KEYFORMAT="com.apple.streamingkeydelivery""#)
        try editor.setQuotedString("URI", "skd://new-id")
        #expect(text(editor) == #"#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMATVERSIONS="1",URI="skd://new-id",X-CUSTOM=0x0A,KEYFORMAT="com.apple.streamingkeydelivery""#)
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
        try editor.setQuotedString("KEYFORMAT", "com.apple.streamingkeydelivery")
        try editor.setUnquoted("METHOD", "SAMPLE-AES")
        #expect(text(editor) == #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery""#)
        var last = try self.editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        last.remove("URI")
        #expect(text(last) == "#EXT-X-KEY:METHOD=SAMPLE-AES")
    }

    @Test("values that would change the line's structure are refused", arguments: [
        "a\"b", "a\nb", "a\rb", "x\",URI=\"evil", "a\u{0}b", "a\u{85}b",
    ])
    func hostileQuoted(value: String) throws {
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        #expect(throws: UnwritableAttributeValue.self) { try editor.setQuotedString("URI", value) }
        #expect(!editor.hasChanges)
    }

    @Test("unquoted values may not hold separators", arguments: ["A,B", "A B", "", "A\"", "A\n"])
    func hostileUnquoted(value: String) throws {
        var editor = try editor(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a""#)
        #expect(throws: UnwritableAttributeValue.self) { try editor.setUnquoted("METHOD", value) }
    }
}
