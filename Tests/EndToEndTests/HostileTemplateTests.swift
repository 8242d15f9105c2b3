import Foundation
import SKDTestSupport
import Testing

/// Template files written by a hostile (or careless) author: every field that reaches a playlist is
/// checked as the attribute it becomes when the file is loaded, so the run is refused (exit 2) with the
/// file, line and column before any playlist is read, and every playlist stays byte for byte as it was.
@Suite("Hostile template files")
struct HostileTemplateTests {
    /// A template file's text, the line and column its error names, and what the message says.
    static let files: [(label: String, text: String, line: Int, column: Int, message: String)] = [
        (
            "keyformat closing its quotes and forging ENDLIST",
            "name: evil\nuri: \"skd://{content_id}\"\nkeyformat: \"com.apple.streamingkeydelivery\\\",X=\\\"1\\n#EXT-X-ENDLIST\"\n",
            3, 12, "keyformat: cannot write KEYFORMAT: a quoted-string cannot hold U+0022"
        ),
        (
            "keyformat with a line break",
            "name: evil\nuri: \"skd://{content_id}\"\nkeyformat: \"com.apple.streamingkeydelivery\\n#EXT-X-ENDLIST\"\n",
            3, 12, "keyformat: cannot write KEYFORMAT: a quoted-string cannot hold U+000A"
        ),
        (
            "keyformat with a carriage return",
            "name: evil\nuri: \"skd://{content_id}\"\nkeyformat: \"com.apple.streamingkeydelivery\\r\"\n",
            3, 12, "keyformat: cannot write KEYFORMAT: a quoted-string cannot hold U+000D"
        ),
        (
            "keyformat with an escape character",
            "name: evil\nuri: \"skd://{content_id}\"\nkeyformat: \"com.apple\\u001B[2J\"\n",
            3, 12, "keyformat: cannot write KEYFORMAT: a quoted-string cannot hold U+001B"
        ),
        (
            "method adding an attribute",
            "name: evil\nuri: \"skd://{content_id}\"\nmethod: \"SAMPLE-AES,URI=\\\"skd://x\\\"\"\n",
            3, 9, "method: cannot write METHOD: an enumerated-string cannot hold U+002C"
        ),
        (
            "keyformatversions with a line break",
            "name: evil\nuri: \"skd://{content_id}\"\nkeyformatversions: \"1\\n#EXT-X-ENDLIST\"\n",
            3, 20, "keyformatversions: cannot write KEYFORMATVERSIONS: a quoted-string cannot hold U+000A"
        ),
        (
            "iv adding an attribute",
            "name: evil\nuri: \"skd://{content_id}\"\niv: \"0x00000000000000000000000000000001,KEYFORMAT=\\\"x\\\"\"\n",
            3, 5, "iv: cannot write IV: a hexadecimal-sequence is 0x followed by hexadecimal digits"
        ),
        (
            "uri with a line break",
            "name: evil\nuri: \"skd://{content_id}\\n#EXT-X-ENDLIST\"\n",
            2, 25, "uri: U+000A may not stand in a URI; write it percent-encoded"
        ),
        (
            "uri with a quote",
            "name: evil\nuri: \"skd://{content_id}\\\",X=\\\"1\"\n",
            2, 25, "uri: U+0022 may not stand in a URI; write it percent-encoded"
        ),
        (
            "a default with a line break",
            "name: evil\nuri: \"skd://{content_id}\"\nvariables:\n  content_id: {default: \"a\\n#EXT-X-ENDLIST\"}\n",
            4, 25, "the default of content_id holds \\n, which no key URI may carry"
        ),
        (
            "a name with a line break",
            "name: \"evil\\n#EXT-X-ENDLIST\"\nuri: \"skd://{content_id}\"\n",
            1, 7, "name 'evil\\n#EXT-X-ENDLIST' is not a template name"
        ),
        (
            "an allowed host with a quote",
            "name: evil\nuri: \"skd://{content_id}\"\nlicense:\n  allow_hosts: [\"lic.example.com\\\"\"]\n",
            4, 17, "'lic.example.com\"' in allow_hosts is not a host name"
        ),
    ]

    @Test("refused with file:line:column and exit 2 by apply and validate; every playlist as it was", arguments: files.map(\.label))
    func refused(label: String) throws {
        let file = try #require(Self.files.first { $0.label == label })
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("evil.yaml", file.text)
        let before = try scratch.snapshot("library")
        let location = "\(scratch.path("evil.yaml")):\(file.line):\(file.column): error: "
        for mode in ["--in-place", "--check", "--diff"] {
            let apply = try SKDPackRunner.run(
                [
                    "apply", "--template", scratch.path("evil.yaml"), "--var", "content_id=title-1", "--assume-encrypted",
                    "--session-keys", mode, scratch.path("library"),
                ])
            #expect(apply.status == 2, "\(mode): \(apply.stderr)")
            #expect(apply.stderr.contains(location + file.message), "\(apply.stderr)")
            #expect(apply.stdout.isEmpty)
        }
        let validate = try SKDPackRunner.run(["validate", "--template", scratch.path("evil.yaml"), scratch.path("library")])
        #expect(validate.status == 2)
        #expect(validate.stderr.contains(location + file.message), "\(validate.stderr)")
        let check = try SKDPackRunner.run(["templates", "check", scratch.path("evil.yaml")])
        #expect(check.status != 0)
        #expect(check.stderr.contains(location + file.message), "\(check.stderr)")
        #expect(try scratch.snapshot("library") == before)
    }

    @Test("the same fields written well are accepted, and every key line written is one whole tag")
    func accepted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "good.yaml",
            "name: good\nuri: \"skd://{content_id}\"\nmethod: SAMPLE-AES\nkeyformat: \"com.apple.streamingkeydelivery\"\n"
                + "keyformatversions: \"1\"\niv: \"0x00000000000000000000000000000001\"\nsession_keys: true\n")
        let check = try SKDPackRunner.run(["templates", "check", scratch.path("good.yaml")])
        #expect(check.status == 0, "\(check.stderr)")
        let apply = try SKDPackRunner.run(
            [
                "apply", "--template", scratch.path("good.yaml"), "--var", "content_id=title-1", "--assume-encrypted", "--in-place",
                scratch.path("library/clear-title"),
            ])
        #expect(apply.status == 0, "\(apply.stderr)")
        let video = try scratch.text("library/clear-title/video-720p.m3u8")
        let keys = video.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") }
        #expect(
            keys == [
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1",IV=0x00000000000000000000000000000001,KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
            ])
        let master = try scratch.text("library/clear-title/master.m3u8")
        #expect(
            master.contains(
                #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://title-1",IV=0x00000000000000000000000000000001,KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
            ))
    }
}
