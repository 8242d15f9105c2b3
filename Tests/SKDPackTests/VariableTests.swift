import Foundation
import SKDFiles
import SKDKeys
import SKDPack
import SKDTemplate
import Testing

@Suite("apply: variables")
struct VariableTests {
    static let playlist = String.lines("#EXTM3U", "#EXT-X-VERSION:5", Keys.fairPlayKey("skd://old/from-uri"), "#EXTINF:6,", "s.ts")

    func uri(_ fixture: ApplyFixture, _ name: String) -> String? {
        fixture.result(name).flatMap { text in
            text.split(separator: "\n").first { $0.contains("skd://") }.flatMap { line in
                line.split(separator: "\"").first { $0.hasPrefix("skd://") }.map(String.init)
            }
        }
    }

    @Test("the built-ins: playlist, playlist_stem, title_dir, key_index, old_uri")
    func builtIns() throws {
        var fixture = try ApplyFixture(["title-7/video_hd.m3u8": Self.playlist])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://x/{title_dir}/{playlist_stem}/{playlist|url}/{key_index}?was={old_uri|url}")
        #expect(uri(fixture, "title-7/video_hd.m3u8") == "skd://x/title-7/video_hd/video_hd.m3u8/0?was=skd%3A%2F%2Fold%2Ffrom-uri")
    }

    @Test("precedence: --var, then --match, then --path-pattern, then the catalogue, then built-ins, then defaults")
    func precedence() throws {
        let catalog = try Catalog.csv("title_dir,id\ntitle-7,from-catalog\n", path: "c.csv")
        let template = "skd://x/{id}"
        func run(vars: [String: String] = [:], match: String? = nil, pathPattern: String? = nil, catalog: Catalog? = nil) throws -> String?
        {
            var fixture = try ApplyFixture(["title-7/v.m3u8": Self.playlist])
            defer { fixture.remove() }
            try fixture.apply(template: template, vars: vars, match: match, pathPattern: pathPattern, catalog: catalog, planned: false)
            return uri(fixture, "title-7/v.m3u8")
        }
        let all = (vars: ["id": "from-var"], match: "skd://old/(?<id>.+)", path: "(?<id>title-\\d+)")
        #expect(try run(vars: all.vars, match: all.match, pathPattern: all.path, catalog: catalog) == "skd://x/from-var")
        #expect(try run(match: all.match, pathPattern: all.path, catalog: catalog) == "skd://x/from-uri")
        #expect(try run(pathPattern: all.path, catalog: catalog) == "skd://x/title-7")
        #expect(try run(catalog: catalog) == "skd://x/from-catalog")
        // A catalogue may override a built-in.
        var fixture = try ApplyFixture(["title-7/v.m3u8": Self.playlist])
        defer { fixture.remove() }
        try fixture.apply(
            template: "skd://x/{title_dir}", catalog: try Catalog.csv("title_dir,title_dir2\ntitle-7,a\n", path: "c.csv"), planned: false)
        #expect(uri(fixture, "title-7/v.m3u8") == "skd://x/title-7")
    }

    @Test("catalogues: CSV with quotes, JSON by title or as a list, rows by path before rows by title")
    func catalogs() throws {
        let csv = try Catalog.csv(
            "path,title_dir,content_id,note\n,t1,\"id, with comma\",\"say \"\"hi\"\"\"\nlib/t2/v.m3u8,,by-path,x\n,t2,by-title,y\n",
            path: "titles.csv")
        #expect(csv.row(for: PlaylistIdentity(path: "lib/t1/a.m3u8"))?.values["content_id"] == "id, with comma")
        #expect(csv.row(for: PlaylistIdentity(path: "lib/t1/a.m3u8"))?.values["note"] == "say \"hi\"")
        #expect(csv.row(for: PlaylistIdentity(path: "lib/t2/v.m3u8"))?.values["content_id"] == "by-path")
        #expect(csv.row(for: PlaylistIdentity(path: "lib/t2/w.m3u8"))?.values["content_id"] == "by-title")
        #expect(csv.row(for: PlaylistIdentity(path: "lib/t1/a.m3u8"))?.source == "titles.csv row 2")
        let byTitle = try Catalog.json(#"{"t1": {"content_id": "a", "n": 7}}"#, path: "c.json")
        #expect(byTitle.row(for: PlaylistIdentity(path: "x/t1/v.m3u8"))?.values == ["content_id": "a", "n": "7"])
        let list = try Catalog.json(#"[{"path": "x/t1/v.m3u8", "content_id": "b"}]"#, path: "c.json")
        #expect(list.row(for: PlaylistIdentity(path: "x/t1/v.m3u8"))?.values == ["content_id": "b"])
    }

    @Test(
        "bad catalogues say where",
        arguments: [
            ("content_id\nx\n", 1, "needs a 'path' or a 'title_dir' column"),
            ("title_dir,id\nt1,a,b\n", 2, "3 fields"),
            ("title_dir,id\nt1,a\nt1,b\n", 3, "second row for the title 't1'"),
            ("title_dir,id\n\"t1,a\n", 2, "never closed"),
            ("title_dir,title_dir\nt1,t2\n", 1, "appears twice"),
        ])
    func badCatalogs(text: String, line: Int, message: String) {
        #expect {
            try Catalog.csv(text, path: "c.csv")
        } throws: { error in
            let error = error as! Catalog.LoadError
            return error.line == line && error.message.contains(message)
        }
    }

    /// A hostile content id can never add a line or an attribute: it is percent-encoded, or refused.
    static let hostileValues: [String: String] = [
        "quote": "a\"b", "attribute": "x\",URI=\"skd://evil", "newline": "line\nbreak",
        "CRLF and tag": "a\r\n#EXT-X-KEY:METHOD=NONE", "tag": "#EXT-X-ENDLIST", "NUL": "nul\u{0}byte",
        "variable reference": "{$x}", "10,000 characters": String(repeating: "#,", count: 5000),
    ]

    @Test(
        "hostile values: refused (a quote, a control character) or percent-encoded, never injected", arguments: hostileValues.keys.sorted())
    func hostile(label: String) throws {
        let value = Self.hostileValues[label]!
        var fixture = try ApplyFixture(["t/v.m3u8": Self.playlist])
        defer { fixture.remove() }
        try fixture.apply(template: "skd://lic.example.com/{content_id}", vars: ["content_id": value], planned: false)
        if TemplateValue.forbiddenScalar(in: value) != nil {
            #expect(fixture.result("t/v.m3u8") == nil, "nothing written")
            let finding = try #require(fixture.outcome("t/v.m3u8")?.diagnostics.first)
            #expect(finding.id == "TPL-render" && finding.message.contains("content_id (from a value given for the run) holds"))
            return
        }
        let output = try #require(fixture.result("t/v.m3u8"))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.playlist.split(separator: "\n", omittingEmptySubsequences: false).count)
        let key = String(lines[2])
        #expect(key.filter { $0 == "\"" }.count == 6, "three quoted attributes, no more")
        #expect(key.hasSuffix(Keys.fairPlay))
        #expect(!key.contains("\r") && !key.contains("\u{0}"))
    }

    @Test("a hostile value that breaks its variable's pattern is an error, and the file stays as it was")
    func hostileRefused() throws {
        var fixture = try ApplyFixture(["t/v.m3u8": Self.playlist])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "x\",URI=\"skd://evil"], planned: false)
        #expect(fixture.result("t/v.m3u8") == nil)
        let finding = try #require(fixture.outcome("t/v.m3u8")?.diagnostics.first)
        #expect(finding.id == "TPL-render")
        #expect(finding.message.contains("content_id (from a value given for the run) holds \\\""))
    }

    @Test("secrets are REDACTED in changes and messages")
    func secrets() throws {
        var fixture = try ApplyFixture(["t/v.m3u8": Self.playlist])
        defer { fixture.remove() }
        let token = "SuperSecretToken-0123456789"
        try fixture.apply(template: "expressplay-token", vars: ["token": token], planned: false)
        let change = try #require(fixture.outcome("t/v.m3u8")?.changes.first { $0.tag == "EXT-X-KEY" })
        #expect(change.after?.text.contains("ExpressPlayToken=REDACTED") == true)
        #expect(fixture.result("t/v.m3u8")?.contains(token) == true)
        try fixture.apply(template: "expressplay-token", vars: ["token": "short \(token)"], planned: false)
        let message = try #require(fixture.outcome("t/v.m3u8")?.diagnostics.first?.message)
        #expect(!message.contains(token))
        #expect(message.contains("REDACTED"))
    }
}
