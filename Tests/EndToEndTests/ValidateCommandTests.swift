import Foundation
import SKDTestSupport
import Testing

@Suite("skdpack validate and rules, as a user runs them")
struct ValidateCommandTests {
    static let brokenKey = #"#EXT-X-KEY:METHOD=AES-128,URI="skd://title-1",KEYFORMAT="com.apple.streamingkeydelivery""#

    static func media(_ key: String) -> String {
        "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n\(key)\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"
    }

    @Test("a finding is path:line:col: severity: message [RULE], then the line and a caret; exit 1")
    func humanOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey))
        let result = try SKDPackRunner.run(["validate", scratch.path("title.m3u8")])
        #expect(result.status == 1)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("\(scratch.path("title.m3u8")):4:19: error: this FairPlay key has METHOD=AES-128"))
        #expect(lines[0].hasSuffix("[FPS-method]"))
        #expect(lines[1] == "    " + Self.brokenKey)
        #expect(lines[2] == "    " + String(repeating: " ", count: 18) + "^")
        #expect(lines[3] == "1 playlist checked: 1 error, 0 warnings, 0 notes")
        #expect(!result.stdoutText.contains("\u{1B}"), "no colour when standard output is not a terminal")
    }

    @Test("a correct playlist: the summary only, exit 0")
    func clean() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES")))
        let result = try SKDPackRunner.run(["validate", scratch.path("title.m3u8")])
        #expect(result.status == 0)
        #expect(result.stdoutText == "1 playlist checked: 0 errors, 0 warnings, 0 notes\n")
    }

    @Test("--disable turns a rule off; an unknown rule is a usage error (exit 2)")
    func disable() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey))
        let off = try SKDPackRunner.run(["validate", "--disable", "FPS-method", scratch.path("title.m3u8")])
        #expect(off.status == 0)
        let unknown = try SKDPackRunner.run(["validate", "--disable", "FPS-nope", scratch.path("title.m3u8")])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--disable FPS-nope: no such rule"))
    }

    @Test("--warnings-as-errors fails on a warning")
    func warningsAsErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let key = Self.brokenKey.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES").replacingOccurrences(of: "skd://", with: "skd:")
        try scratch.write("title.m3u8", Self.media(key))
        #expect(try SKDPackRunner.run(["validate", scratch.path("title.m3u8")]).status == 0)
        let strict = try SKDPackRunner.run(["validate", "--warnings-as-errors", scratch.path("title.m3u8")])
        #expect(strict.status == 1)
        #expect(strict.stdoutText.contains("error: write skd://title-1"))
    }

    @Test("--format json: findings per playlist with rule, severity, line, column; the same bytes twice")
    func json() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey))
        let result = try SKDPackRunner.run(["validate", "--format", "json", scratch.path("title.m3u8")])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(document["schemaVersion"] as? String == "0.1")
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary == ["playlists": 1, "errors": 1, "warnings": 0, "infos": 0])
        let playlists = try #require(document["playlists"] as? [[String: Any]])
        #expect(playlists.first?["kind"] as? String == "media")
        let finding = try #require((playlists.first?["diagnostics"] as? [[String: Any]])?.first)
        #expect(finding["rule"] as? String == "FPS-method")
        #expect(finding["line"] as? Int == 4)
        #expect(finding["column"] as? Int == 19)
        let again = try SKDPackRunner.run(["validate", "--format", "json", scratch.path("title.m3u8")])
        #expect(again.stdout == result.stdout)
    }

    @Test("a hostile line cannot reach the terminal: control characters are shown as ?")
    func terminalSafe() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let key = Self.brokenKey.replacingOccurrences(of: "title-1", with: "t\u{1B}[2Jx")
        try scratch.write("title.m3u8", Self.media(key))
        let result = try SKDPackRunner.run(["validate", scratch.path("title.m3u8")])
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("[HLS-control-character]"))
        #expect(!result.stdout.contains(0x1B))
        #expect(result.stdoutText.contains("t?[2Jx"))
    }

    @Test("standard input is validated as -, with its lines shown")
    func standardInput() throws {
        let result = try SKDPackRunner.run(["validate", "-"], stdin: Data(Self.media(Self.brokenKey).utf8))
        #expect(result.status == 1)
        #expect(result.stdoutText.hasPrefix("-:4:19: error:"))
        #expect(result.stdoutText.contains("    " + Self.brokenKey + "\n"))
    }

    @Test("a directory: every playlist, and a master's missing variant as PKG-missing-playlist")
    func directory() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(
            at: scratch.root.appendingPathComponent("title"), withIntermediateDirectories: true)
        try scratch.write("title/master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv2.m3u8\n")
        try scratch.write("title/v1.m3u8", Self.media(Self.brokenKey.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES")))
        let result = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("master.m3u8:5:1: error: v2.m3u8 does not exist"))
        #expect(result.stdoutText.hasSuffix("2 playlists checked: 1 error, 0 warnings, 0 notes\n"))
    }

    @Test("an unreadable input is reported on standard error and exits 2")
    func missingInput() throws {
        let result = try SKDPackRunner.run(["validate", "/nonexistent/x.m3u8"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/x.m3u8"))
    }

    @Test("rules lists the validation rules too, as a table and as JSON")
    func rules() throws {
        let table = try SKDPackRunner.run(["rules"])
        #expect(table.status == 0)
        #expect(table.stdoutText.contains("FPS-method"))
        #expect(table.stdoutText.contains("KEY-session-duplicate"))
        let json = try SKDPackRunner.run(["rules", "--format", "json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: String]])
        let method = try #require(entries.first { $0["id"] == "FPS-method" })
        #expect(method["severity"] == "error")
        #expect(method["specSection"] == "4.3.2.4")
    }
}
