import Foundation
import SKDKeys
import SKDPack
import Testing

@Suite("apply: media playlists")
struct MediaApplyTests {
    @Test("rule 1: FairPlay URIs are rewritten; other systems, IV, KEYID and unknown attributes stay, in order")
    func rewrite() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines(
                "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", Keys.widevine,
                #"#EXT-X-KEY:X-VENDOR=abc,KEYFORMATVERSIONS="1",URI="skd://old-1",IV=0x000102030405060708090A0B0C0D0E0F,METHOD=SAMPLE-AES,KEYFORMAT="com.apple.streamingkeydelivery""#,
                "#EXTINF:6,", "s1.ts", "#EXT-X-ENDLIST")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "new-1"])
        #expect(
            fixture.result("t/v.m3u8")
                == .lines(
                    "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", Keys.widevine,
                    #"#EXT-X-KEY:X-VENDOR=abc,KEYFORMATVERSIONS="1",URI="skd://new-1",IV=0x000102030405060708090A0B0C0D0E0F,METHOD=SAMPLE-AES,KEYFORMAT="com.apple.streamingkeydelivery""#,
                    "#EXTINF:6,", "s1.ts", "#EXT-X-ENDLIST"))
        let changes = try #require(fixture.outcome("t/v.m3u8")?.changes)
        #expect(changes.map(\.action) == [.rewritten])
        #expect(changes.first?.line == 5)
    }

    @Test("rule 1: METHOD and KEYFORMATVERSIONS change only where the template file sets them and they differ")
    func templateAttributes() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines(
                "#EXTM3U", "#EXT-X-VERSION:5",
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1/2""#,
                "#EXTINF:6,", "s1.ts"),
            "tpl.yaml": "name: t\nuri: \"skd://{content_id}\"\nkeyformatversions: \"1\"\n",
        ])
        defer { fixture.remove() }
        try fixture.apply(template: fixture.input.appendingPathComponent("tpl.yaml").path, vars: ["content_id": "b"])
        #expect(
            fixture.result("t/v.m3u8")?.contains(#"URI="skd://b",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#) == true
        )
    }

    @Test("rule 1: a FairPlay key with METHOD=AES-128 is an error and the playlist is left as it was")
    func fairPlayWithAES() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines("#EXTM3U", Keys.fairPlayKey("skd://a", method: "AES-128"), "#EXTINF:6,", "s1.ts")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "b"])
        #expect(fixture.result("t/v.m3u8") == nil)
        #expect(fixture.ids("t/v.m3u8").contains("FPS-method-unusable"))
    }

    /// Two key periods whose FairPlay keys share the old URI, each with a Widevine key of its own KEYID
    /// (where `kid` comes from), as key rotation often writes them: a URI rendered for the first is reused
    /// for the second only where nothing else of the period enters the template.
    static func repeatedURI(_ first: String, _ second: String) -> String {
        let fairPlay =
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old.example.com/title-7",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let widevine = { (kid: String) in Keys.widevine.replacingOccurrences(of: "0123456789ABCDEF0123456789ABCDEF", with: kid) }
        return .lines(
            "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", widevine(first), fairPlay, "#EXTINF:6,", "s1.ts",
            widevine(second), fairPlay, "#EXTINF:6,", "s2.ts")
    }

    @Test("keys repeating an old URI: a template using kid or key_index is rendered for each period")
    func repeatedURIPerPeriod() throws {
        let (first, second) = ("0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210")
        var fixture = try ApplyFixture(["t/v.m3u8": Self.repeatedURI(first.uppercased(), second.uppercased())])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://new.example.com/{title}/{kid}/{key_index}", match: "skd://old.example.com/(?<title>.+)")
        let result = try #require(fixture.result("t/v.m3u8"))
        let uris = result.components(separatedBy: #"URI=""#).dropFirst().map { $0.prefix { $0 != "\"" } }
        let fairPlay = uris.filter { $0.hasPrefix("skd:") }
        #expect(fairPlay == ["skd://new.example.com/title-7/\(first)/0", "skd://new.example.com/title-7/\(second)/1"])
    }

    @Test("keys repeating an old URI over one KEYID: a template using only the old URI gives each the same new one, each change recorded")
    func repeatedURIShared() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": Self.repeatedURI("0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://new.example.com/{title}", match: "skd://old.example.com/(?<title>.+)")
        let result = try #require(fixture.result("t/v.m3u8"))
        #expect(result.components(separatedBy: #"URI="skd://new.example.com/title-7""#).count == 3)
        #expect(!result.contains("old.example.com"))
        #expect(fixture.outcome("t/v.m3u8")?.changes.map(\.line) == [5, 9])
    }

    @Test("keys repeating an old URI over rotating KEYIDs: a template using only the old URI would give two keys one URI, refused")
    func repeatedURIFolded() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": Self.repeatedURI("0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://new.example.com/{title}", match: "skd://old.example.com/(?<title>.+)")
        #expect(fixture.result("t/v.m3u8") == nil)
        #expect(fixture.ids("t/v.m3u8") == ["TPL-rotation-folded"])
    }

    static let rotated = String.lines(
        "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", #"#EXT-X-MAP:URI="init.mp4""#,
        "#EXT-X-KEY:METHOD=NONE", "#EXTINF:6,", "clear.m4s",
        Keys.widevine, Keys.playReady, "#EXTINF:6,", "s1.m4s", "#EXTINF:6,", "s2.m4s",
        Keys.widevine.replacingOccurrences(of: "0x0123456789ABCDEF0123456789ABCDEF", with: "0xFEDCBA9876543210FEDCBA9876543210"),
        Keys.playReady, "#EXTINF:6,", "s3.m4s", "#EXT-X-KEY:METHOD=NONE", "#EXTINF:6,", "ad.m4s", "#EXT-X-ENDLIST")

    @Test("rule 2: a period with other systems' SAMPLE-AES keys gets a FairPlay key after its last key; clear periods stay clear")
    func insertion() throws {
        var fixture = try ApplyFixture(["t/v.m3u8": Self.rotated])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://lic.example.com/{title_dir}/{key_index}/{kid}")
        let inserted = { (index: Int, kid: String) in
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/t/\#(index)/\#(kid)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        }
        #expect(
            fixture.result("t/v.m3u8")
                == .lines(
                    "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", #"#EXT-X-MAP:URI="init.mp4""#,
                    "#EXT-X-KEY:METHOD=NONE", "#EXTINF:6,", "clear.m4s",
                    Keys.widevine, Keys.playReady, inserted(0, "0123456789abcdef0123456789abcdef"),
                    "#EXTINF:6,", "s1.m4s", "#EXTINF:6,", "s2.m4s",
                    Keys.widevine.replacingOccurrences(
                        of: "0x0123456789ABCDEF0123456789ABCDEF", with: "0xFEDCBA9876543210FEDCBA9876543210"),
                    Keys.playReady, inserted(1, "fedcba9876543210fedcba9876543210"),
                    "#EXTINF:6,", "s3.m4s", "#EXT-X-KEY:METHOD=NONE", "#EXTINF:6,", "ad.m4s", "#EXT-X-ENDLIST"))
    }

    @Test(
        "rule 2: periods encrypted with AES-128 or SAMPLE-AES-CTR are an error; the playlist stays",
        arguments: ["AES-128", "SAMPLE-AES-CTR"])
    func unusablePeriods(method: String) throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines(
                "#EXTM3U", Keys.widevine.replacingOccurrences(of: "METHOD=SAMPLE-AES", with: "METHOD=\(method)"), "#EXTINF:6,", "s1.ts")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "x"])
        #expect(fixture.result("t/v.m3u8") == nil)
        let finding = try #require(fixture.outcome("t/v.m3u8")?.diagnostics.first { $0.id == "FPS-method-unusable" })
        #expect(finding.location.line == 2)
        #expect(finding.message.contains("METHOD=\(method)"))
    }

    @Test("rule 3: clear media is reported and left; --assume-encrypted puts a key before the first segment, after EXT-X-MAP")
    func clearMedia() throws {
        let clear = String.lines(
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6", #"#EXT-X-MAP:URI="init.mp4""#,
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z", "#EXTINF:6,", "s1.m4s", "#EXTINF:6,", "s2.m4s")
        var fixture = try ApplyFixture(["t/v.m3u8": clear])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "c"])
        #expect(fixture.result("t/v.m3u8") == clear)
        #expect(fixture.ids("t/v.m3u8") == ["FPS-clear-playlist"])
        try fixture.apply(template: "content-id", vars: ["content_id": "c"], assumeEncrypted: true)
        #expect(
            fixture.result("t/v.m3u8")
                == .lines(
                    "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6", #"#EXT-X-MAP:URI="init.mp4""#,
                    Keys.fairPlayKey("skd://c"),
                    "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z", "#EXTINF:6,", "s1.m4s", "#EXTINF:6,", "s2.m4s"))
    }

    @Test(
        "rule 4: EXT-X-VERSION rises to 5 when FairPlay keys are written, and is added after #EXTM3U if absent",
        arguments: [
            ("#EXT-X-VERSION:3", "#EXT-X-VERSION:5", true),
            ("#EXT-X-VERSION:7", "#EXT-X-VERSION:7", false),
            (nil, "#EXT-X-VERSION:5", true),
        ] as [(String?, String, Bool)])
    func version(before: String?, after: String, reported: Bool) throws {
        let lines = ["#EXTM3U"] + (before.map { [$0] } ?? []) + [Keys.fairPlayKey("skd://a"), "#EXTINF:6,", "s.ts"]
        var fixture = try ApplyFixture(["t/v.m3u8": lines.joined(separator: "\n") + "\n"])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "b"])
        let output = try #require(fixture.result("t/v.m3u8"))
        #expect(output.split(separator: "\n")[1] == after)
        #expect(fixture.outcome("t/v.m3u8")?.changes.contains { $0.tag == "EXT-X-VERSION" } == reported)
    }

    @Test("rule 5: a URI using {$var} is read substituted (for --match) and written literal, with a note")
    func define() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines(
                "#EXTM3U", "#EXT-X-VERSION:8", #"#EXT-X-DEFINE:NAME="id",VALUE="title-9""#,
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old.example.com/{$id}",KEYFORMAT="com.apple.streamingkeydelivery""#,
                "#EXTINF:6,", "s.ts")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://new.example.com/{content_id}", match: "skd://old.example.com/(?<content_id>.+)")
        #expect(fixture.result("t/v.m3u8")?.contains(#"URI="skd://new.example.com/title-9""#) == true)
        #expect(fixture.ids("t/v.m3u8") == ["HLS-define-literal"])
    }

    @Test("line endings, a missing final newline and other bytes are kept")
    func bytesKept() throws {
        let input =
            "#EXTM3U\r\n#EXT-X-VERSION:5\r\n# comment\r\n#EXT-X-CUSTOM:foo\r\n" + Keys.fairPlayKey("skd://a")
            + "\r\n#EXTINF:4,\r\nchunk.ts\r\n#EXT-X-ENDLIST"
        var fixture = try ApplyFixture(["t/v.m3u8": input])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "b"])
        #expect(fixture.result("t/v.m3u8") == input.replacingOccurrences(of: "skd://a", with: "skd://b"))
    }

    @Test("idempotent: applying to the output changes nothing")
    func idempotent() throws {
        var fixture = try ApplyFixture(["t/v.m3u8": Self.rotated])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://lic.example.com/{key_index}", assumeEncrypted: true)
        let once = try #require(fixture.result("t/v.m3u8"))
        var second = try ApplyFixture(["t/v.m3u8": once])
        defer { second.remove() }
        let outcomes = try second.apply(template: "skd://lic.example.com/{key_index}", assumeEncrypted: true)
        #expect(outcomes.allSatisfy { $0.changes.isEmpty && !$0.failed })
        #expect(second.result("t/v.m3u8") == once)
    }

    @Test("a key URI that cannot be rendered is an error naming the variable; nothing is written")
    func renderError() throws {
        var fixture = try ApplyFixture(["t/v.m3u8": .lines("#EXTM3U", Keys.fairPlayKey("skd://a"), "#EXTINF:6,", "s.ts")])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", planned: false)
        #expect(fixture.result("t/v.m3u8") == nil)
        let finding = try #require(fixture.outcome("t/v.m3u8")?.diagnostics.first)
        #expect(finding.id == "TPL-render")
        #expect(finding.location.line == 2)
        #expect(finding.message.contains("{content_id} has no value"))
    }

    @Test("a --match that does not fit an existing key is an error")
    func matchError() throws {
        var fixture = try ApplyFixture(["t/v.m3u8": .lines("#EXTM3U", Keys.fairPlayKey("skd://other/a"), "#EXTINF:6,", "s.ts")])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://new/{id}", match: "skd://old/(?<id>.+)")
        #expect(fixture.ids("t/v.m3u8") == ["TPL-match"])
        #expect(fixture.result("t/v.m3u8") == nil)
    }
}

@Suite("content ids from a pattern, per title")
struct ContentIDsPerTitleTests {
    static func playlist(_ uris: [String]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6"]
        for (index, uri) in uris.enumerated() {
            lines.append(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
            lines += ["#EXTINF:6,", "s\(index).ts"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a title whose keys get several content ids from --match is warned about; one content id is not")
    func severalContentIDs() throws {
        var fixture = try ApplyFixture(["title-7/v.m3u8": Self.playlist(["skd://title-7/0", "skd://title-7/1"])])
        defer { fixture.remove() }
        // The pattern takes the period along: title-7/0 and title-7/1, two content ids the server does not know.
        try fixture.apply(template: "skd://lic.example.com/fps?cid={content_id|url}&p={key_index}", match: "skd://(?<content_id>.+)")
        #expect(fixture.notes.contains { $0.contains("got 2 content ids") && $0.contains("title-7/0") }, "\(fixture.notes)")
        try fixture.apply(
            template: "skd://lic.example.com/fps?cid={content_id|url}&p={key_index}", match: "skd://(?<content_id>[^/]+)")
        #expect(!fixture.notes.contains { $0.contains("content ids") }, "\(fixture.notes)")
    }
}
