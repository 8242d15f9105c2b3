import Foundation
import SKDReportCheck
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

    @Test("a report on standard output: the summary line on standard error, for the CI log", arguments: ["json", "sarif", "junit"])
    func reportWithSummary(_ format: String) throws {
        let run = try SKDPackRunner.run(["validate", "--format", format, "-"], stdin: Data(Self.media(Self.brokenKey).utf8))
        #expect(run.status == 1)
        #expect(run.stderr.hasSuffix("1 playlist checked: 1 error, 0 warnings, 0 notes\n"), "\(run.stderr)")
        #expect(!run.stdoutText.contains("playlist checked"))
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

    @Test("a path that is not there is said once, counted apart from the playlists checked, and failed in the report; exit 2")
    func missingPath() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES")))
        let missing = scratch.path("lib/movie-z")
        let report = scratch.path("report.json")
        let result = try SKDPackRunner.run(["validate", "--report", report, missing, scratch.path("title.m3u8")])
        #expect(result.status == 2)
        #expect(result.stderr.components(separatedBy: "movie-z").count == 2, "once: \(result.stderr)")
        #expect(!result.stdoutText.contains("movie-z"), "no finding at a line of a file that is not there: \(result.stdoutText)")
        #expect(result.stdoutText == "1 playlist checked: 0 errors, 0 warnings, 0 notes; 1 path not read\n")
        // The report keeps it as a playlist that failed: a CI view shows it red.
        let json = try scratch.text("report.json")
        #expect(json.contains("movie-z") && json.contains("PKG-unreadable"))
    }

    @Test("--catalog without a column the template needs is refused (exit 2): its keys' server would pass unchecked")
    func catalogueMissingAColumn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("no-url.csv", "title_dir,content_id\nlegacy-title,legacy-0042\n")
        let title = scratch.path("library/legacy-title")
        let run = try SKDPackRunner.run(
            ["validate", "--template", "entitlement", "--catalog", scratch.path("no-url.csv"), title])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(
            run.stderr.contains("no-url.csv: it has no entitlement_url column, and nothing else gives {entitlement_url}"),
            "\(run.stderr)")
        // Given another way, the run checks every key against it.
        let given = try SKDPackRunner.run(
            [
                "validate", "--template", "entitlement", "--catalog", scratch.path("no-url.csv"), "--var",
                "entitlement_url=https://lic.example.com/fps", title,
            ])
        #expect(given.status != 2, "\(given.stderr)")
    }

    @Test("keys on another license server: the finding says so, and names a value read from a file as --var-file's")
    func wrongServer() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let title = scratch.path("library/legacy-title")
        let migrated = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--var", "entitlement_url=https://evil.example.net/fps", "--catalog"]
                + [PackageLocation.root.appendingPathComponent("examples/catalog.csv").path, "--in-place", title])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        try scratch.write("url.txt", "https://lic.example.com/fps\n")
        let run = try SKDPackRunner.run(
            ["validate", "--template", "entitlement", "--var-file", "entitlement_url=\(scratch.path("url.txt"))", title])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdoutText.contains("(--var-file)") && !run.stdoutText.contains("(--var)"), "\(run.stdoutText)")
        let given = try SKDPackRunner.run(
            [
                "validate", "--template", "entitlement", "--catalog",
                PackageLocation.root.appendingPathComponent("examples/catalog.csv").path,
            ]
                + [title])
        #expect(given.status == 1, "\(given.stderr)")
        #expect(given.stdoutText.contains("another license server"), "\(given.stdoutText)")
        #expect(!given.stdoutText.contains("another title's key"), "\(given.stdoutText)")
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

    /// A JSON report without its `run` section, the only part that may differ between two runs.
    static func withoutRun(_ data: Data) throws -> NSDictionary {
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        document["run"] = nil
        return document as NSDictionary
    }

    @Test("--format json: the report, with findings per playlist; equal to a second run's outside run")
    func json() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey))
        let result = try SKDPackRunner.run(["validate", "--format", "json", scratch.path("title.m3u8")])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(document["schemaVersion"] as? String == "1.5")
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary["playlistsRead"] == 1)
        #expect(summary["failed"] == 1)
        #expect(summary["errors"] == 1)
        let run = try #require(document["run"] as? [String: Any])
        #expect(run["command"] as? String == "validate")
        #expect(run["arguments"] as? [String] == ["--format", "json", scratch.path("title.m3u8")])
        let playlists = try #require(document["playlists"] as? [[String: Any]])
        #expect(playlists.first?["kind"] as? String == "media")
        #expect(playlists.first?["status"] as? String == "failed")
        let finding = try #require((playlists.first?["diagnostics"] as? [[String: Any]])?.first)
        #expect(finding["rule"] as? String == "FPS-method")
        #expect(finding["line"] as? Int == 4)
        #expect(finding["column"] as? Int == 19)
        let again = try SKDPackRunner.run(["validate", "--format", "json", scratch.path("title.m3u8")])
        #expect(try Self.withoutRun(again.stdout) == Self.withoutRun(result.stdout))
        #expect(try Self.jsonSchema().problems(in: [UInt8](result.stdout)) == [])
    }

    /// The JSON Schema as the binary prints it.
    static func jsonSchema() throws -> JSONSchemaCheck {
        let schema = try SKDPackRunner.run(["report", "schema", "--format", "json"])
        #expect(schema.status == 0)
        return try JSONSchemaCheck(schema: [UInt8](schema.stdout))
    }

    /// The XSD as the binary prints it, ready to validate with.
    static func xsd() throws -> XMLSchemaValidator {
        let schema = try SKDPackRunner.run(["report", "schema", "--format", "xml"])
        #expect(schema.status == 0)
        return try XMLSchemaValidator(xsd: [UInt8](schema.stdout))
    }

    @Test("invalid UTF-8, control characters and markup in a playlist still give a valid XML report")
    func hostileBytesInXML() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var bytes = Array(Self.media(Self.brokenKey.replacingOccurrences(of: "title-1", with: "t<&\"x")).utf8)
        let uri = try #require(bytes.firstIndex(of: UInt8(ascii: "<")))
        bytes.insert(contentsOf: [0xFF, 0xFE, 0x01, 0x1B], at: uri)
        try Data(bytes).write(to: scratch.root.appendingPathComponent("title.m3u8"))
        let result = try SKDPackRunner.run(["validate", "--format", "xml", scratch.path("title.m3u8")])
        #expect(result.status == 1)
        #expect(try Self.xsd().problems(in: [UInt8](result.stdout)) == [])
        #expect(result.stdoutText.contains(#"rule="HLS-invalid-utf8""#))
        let junit = try SKDPackRunner.run(["validate", "--format", "junit", scratch.path("title.m3u8")])
        #expect(XMLSchemaValidator.wellFormednessProblem(in: [UInt8](junit.stdout)) == nil)
    }

    @Test("colour on a terminal, none with NO_COLOR")
    func colour() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("script(1) is missing: cannot give skdpack a terminal")
            return
        }
        let coloured = try SKDPackRunner.runOnTerminal(["validate", scratch.path("title.m3u8")])
        #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        let plain = try SKDPackRunner.runOnTerminal(["validate", scratch.path("title.m3u8")], environment: ["NO_COLOR": "1"])
        #expect(plain.contains("error: this FairPlay key"))
        #expect(!plain.contains("\u{1B}[1;"), "no colour codes")
    }

    @Test("--format xml is valid against the XSD that report schema prints")
    func xml() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("title.m3u8", Self.media(Self.brokenKey.replacingOccurrences(of: "title-1", with: "a<b&c")))
        let result = try SKDPackRunner.run(["validate", "--format", "xml", scratch.path("title.m3u8")])
        #expect(result.status == 1)
        #expect(try Self.xsd().problems(in: [UInt8](result.stdout)) == [])
        #expect(result.stdoutText.contains(#"rule="FPS-method" severity="error" line="4" column="19""#))
    }

    @Test("--format junit and sarif: a test case per playlist with a failure per error; SARIF results with locations")
    func junitAndSARIF() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let junit = try SKDPackRunner.run(["validate", "--format", "junit", scratch.path("library")])
        #expect(junit.status == 1)
        #expect(XMLSchemaValidator.wellFormednessProblem(in: [UInt8](junit.stdout)) == nil)
        #expect(junit.stdoutText.components(separatedBy: "<testcase ").count - 1 == 9)
        #expect(junit.stdoutText.components(separatedBy: "<failure ").count - 1 == 1)
        let sarif = try SKDPackRunner.run(["validate", "--format", "sarif", scratch.path("library")])
        let log = try #require(try JSONSerialization.jsonObject(with: sarif.stdout) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["HLS-version-too-low", "PKG-session-key-missing"])
        #expect(results.map { $0["level"] as? String } == ["error", "warning"])
    }

    @Test("--format takes every report format, html included, and names them all when given another")
    func everyReportFormat() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let page = try SKDPackRunner.run(["validate", "--format", "html", scratch.path("library")])
        #expect(page.status == 1)
        #expect(page.stdoutText.hasPrefix("<!DOCTYPE html>"))
        #expect(page.stdoutText.contains("HLS-version-too-low") && page.stdoutText.hasSuffix("</html>\n"))
        let filed = try SKDPackRunner.run(["validate", "--report", scratch.path("report.html"), scratch.path("library")])
        #expect(filed.status == page.status)
        #expect(try scratch.text("report.html").hasPrefix("<!DOCTYPE html>"))
        let wrong = try SKDPackRunner.run(["validate", "--format", "htm", scratch.path("library")])
        #expect(wrong.status == 2)
        for format in ["human", "json", "xml", "junit", "sarif", "html"] { #expect(wrong.stderr.contains(format)) }
    }

    /// Each finding of a JSON report as "file:line rule".
    static func findings(_ report: Data) throws -> [String] {
        let json = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        return (json["playlists"] as? [[String: Any]] ?? []).flatMap { playlist in
            let file = (playlist["path"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            return (playlist["diagnostics"] as? [[String: Any]] ?? []).map {
                "\(file):\($0["line"] as? Int ?? 0) \($0["rule"] as? String ?? "")"
            }
        }
    }

    @Test("a tag cut by a \\ continuation is one finding: its rest is not taken for the variant's playlist")
    func continuationIsOneFinding() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/master.m3u8",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,\\\nCODECS=\"mp4a.40.2\"\nv.m3u8\n")
        try scratch.write("title/v.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n")
        let result = try SKDPackRunner.run(["validate", "--format", "json", scratch.path("title")])
        #expect(try Self.findings(result.stdout) == ["master.m3u8:2 HLS-attribute-syntax"])
    }

    @Test(
        "rfc8216bis 6.2.4: a package's media playlists share one target duration and one playlist type; VOD subtitles and I-frames may differ"
    )
    func packageTargetDurationAndType() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        let media = { (target: Int, type: String?) in
            "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n" + (type.map { "#EXT-X-PLAYLIST-TYPE:\($0)\n" } ?? "")
                + "#EXTINF:\(target),\na.ts\n#EXT-X-ENDLIST\n"
        }
        try scratch.write(
            "title/master.m3u8",
            "#EXTM3U\n"
                + #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",LANGUAGE="en",URI="subs.m3u8""# + "\n"
                + #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",LANGUAGE="en",CHANNELS="2",URI="audio.m3u8""# + "\n"
                + #"#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="a",SUBTITLES="s""# + "\nlow.m3u8\n"
                + #"#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="a",SUBTITLES="s""# + "\nhigh.m3u8\n")
        try scratch.write("title/low.m3u8", media(6, "VOD"))
        try scratch.write("title/high.m3u8", media(6, "VOD"))
        try scratch.write("title/audio.m3u8", media(6, "VOD"))
        try scratch.write("title/subs.m3u8", media(60, "VOD"))
        let validate = ["validate", "--format", "json", scratch.path("title")]
        #expect(try Self.findings(try SKDPackRunner.run(validate).stdout) == [])
        try scratch.write("title/audio.m3u8", media(10, nil))
        let result = try SKDPackRunner.run(validate)
        #expect(try Self.findings(result.stdout) == ["audio.m3u8:1 PKG-playlist-type", "audio.m3u8:2 PKG-target-duration"])
        #expect(result.stdoutText.contains("EXT-X-TARGETDURATION:10 differs from the 6 s of low.m3u8 and 1 more"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("no EXT-X-PLAYLIST-TYPE, unlike subs.m3u8 and 2 more (EXT-X-PLAYLIST-TYPE:VOD)"))
        #expect(result.status == 1)
    }

    @Test("validate --report, repeated: JSON, SARIF, JUnit and HTML in one pass, beside --format on standard output")
    func reportsInOnePass() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let names = ["x.json", "x.sarif", "x.junit.xml", "x.html"]
        let result = try SKDPackRunner.run(
            ["validate", "--format", "json"] + names.flatMap { ["--report", scratch.path($0)] } + [scratch.path("library")])
        #expect(result.status == 1)
        let stdout = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let file = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("x.json")))) as? [String: Any])
        #expect(
            NSDictionary(dictionary: stdout["summary"] as! [String: Any]) == NSDictionary(dictionary: file["summary"] as! [String: Any]))
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("x.sarif")))) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        let junit = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path("x.junit.xml"))))
        #expect(XMLSchemaValidator.wellFormednessProblem(in: junit) == nil)
        let html = try scratch.text("x.html")
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        let errors = (file["summary"] as! [String: Any])["errors"] as! Int
        #expect(html.contains("<dd id=\"total-errors\">\(errors)</dd>"))
        let bad = try SKDPackRunner.run(["validate", "--report", scratch.path("x.txt"), scratch.path("library")])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("name it .json, .xml, .junit.xml, .sarif or .html"))
    }

    @Test("validate --template --catalog: a key with another title's content id is an error that names both")
    func anotherTitlesKey() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let catalog = PackageLocation.root.appendingPathComponent("examples/catalog.csv").path
        let apply = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--catalog", catalog, "--in-place", "--no-progress", scratch.path("library")])
        #expect(apply.status == 1, "\(apply.stderr)")
        let validate = [
            "validate", "--template", "entitlement", "--catalog", catalog, "--format", "json", scratch.path("library/legacy-title"),
        ]
        var result = try SKDPackRunner.run(validate)
        #expect(!result.stdoutText.contains("TPL-key-mismatch"), "\(result.stdoutText)")
        // legacy-title's key given multi-drm-title's content id.
        let path = "library/legacy-title/video-360p.m3u8"
        try scratch.write(path, try scratch.text(path).replacingOccurrences(of: "cid=title-0042", with: "cid=title-2001"))
        result = try SKDPackRunner.run(validate)
        #expect(result.status == 1)
        #expect(
            result.stdoutText.contains(
                "this key carries content_id=title-2001 (the value of \(catalog) row 3), but this title's is title-0042 (\(catalog) row 4)"),
            "\(result.stdoutText)")
        let alone = try SKDPackRunner.run(["validate", "--catalog", catalog, scratch.path("library")])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--catalog needs --template"))
    }

    @Test("validate --template --catalog --var: a value given with --var is stronger than the title's row, as in apply")
    func givenValueStrongerThanRow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let catalog = PackageLocation.root.appendingPathComponent("examples/catalog.csv").path
        // The catalogue's entitlement_url is https://lic.example.com/fps; the run moves every title elsewhere.
        let values = ["--template", "entitlement", "--catalog", catalog, "--var", "entitlement_url=https://new-lic.example.com/fps"]
        let title = scratch.path("library/legacy-title")
        let apply = try SKDPackRunner.run(["apply"] + values + ["--in-place", "--no-progress", title])
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(try scratch.text("library/legacy-title/video-360p.m3u8").contains("skd://new-lic.example.com/fps?cid=title-0042"))
        let validate = try SKDPackRunner.run(["validate"] + values + [title])
        #expect(validate.status == 0, "\(validate.stdoutText)")
        #expect(!validate.stdoutText.contains("TPL-key-mismatch"), "\(validate.stdoutText)")
        // A key given another title's content id: the message names that value, not the server --var set.
        let path = "library/legacy-title/video-360p.m3u8"
        try scratch.write(path, try scratch.text(path).replacingOccurrences(of: "cid=title-0042", with: "cid=title-2001"))
        let mismatch = try SKDPackRunner.run(["validate"] + values + [title])
        #expect(mismatch.status == 1)
        #expect(mismatch.stdoutText.contains("this key carries content_id=title-2001"), "\(mismatch.stdoutText)")
        #expect(!mismatch.stdoutText.contains("entitlement_url="), "\(mismatch.stdoutText)")
    }

    @Test("validate --template --catalog: a title the catalogue has no row for is said once a playlist, not passed in silence")
    func titleWithoutRow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let catalog = PackageLocation.root.appendingPathComponent("examples/catalog.csv").path
        // A title folder the catalogue does not list (a typo in a folder name, a title added after the catalogue).
        try FileManager.default.moveItem(atPath: scratch.path("library/legacy-title"), toPath: scratch.path("library/unlisted-title"))
        let result = try SKDPackRunner.run([
            "validate", "--template", "entitlement", "--catalog", catalog, "--format", "json", scratch.path("library/unlisted-title"),
        ])
        let report = try JSONSerialization.jsonObject(with: result.stdout) as! [String: Any]
        let playlists = report["playlists"] as! [[String: Any]]
        #expect(playlists.count == 2)
        for playlist in playlists {
            let findings = (playlist["diagnostics"] as! [[String: Any]]).filter { $0["rule"] as? String == "TPL-no-catalogue-row" }
            #expect(findings.count == 1, "\(playlist)")
            #expect((findings.first?["message"] as? String)?.contains("add a row for unlisted-title") == true, "\(findings)")
        }
        // A listed title says nothing of the kind.
        let listed = try SKDPackRunner.run([
            "validate", "--template", "entitlement", "--catalog", catalog, scratch.path("library/crlf-title"),
        ])
        #expect(!listed.stdoutText.contains("TPL-no-catalogue-row"), "\(listed.stdoutText)")
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
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/master.m3u8",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.64001f\"\nv1.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2,CODECS=\"avc1.64001f\"\nv2.m3u8\n"
        )
        try scratch.write("title/v1.m3u8", Self.media(Self.brokenKey.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES")))
        let result = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("master.m3u8:5:1: error: v2.m3u8 does not exist"))
        #expect(result.stdoutText.contains("[PKG-missing-playlist]"))
        try scratch.write(
            "title/master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\n../../etc/v.m3u8\n")
        let outside = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(outside.status == 1)
        #expect(outside.stdoutText.contains("master.m3u8:5:1: error: ../../etc/v.m3u8 leaves the master's directory"))
        #expect(outside.stdoutText.contains("[PKG-reference-outside]"))
        #expect(result.stdoutText.hasSuffix("2 playlists checked: 1 error, 0 warnings, 0 notes\n"))
    }

    @Test("references skdpack cannot read here (root-relative, remote) are notes, and so is a session key only they may use")
    func unreadReferences() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        let key = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let sessionKey = key.replacingOccurrences(of: "skd://title-1", with: "skd://title-2")
            .replacingOccurrences(of: "EXT-X-KEY", with: "EXT-X-SESSION-KEY")
        try scratch.write(
            "title/master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n\(sessionKey)\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=2\n/talks/v2.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=3\nhttps://cdn.example.com/v3.m3u8\n")
        try scratch.write("title/v1.m3u8", Self.media(key))
        let result = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(result.status == 0, "\(result.stdoutText)")
        #expect(result.stdoutText.contains("master.m3u8:7:1: note: /talks/v2.m3u8 is relative to the web server's root"))
        #expect(result.stdoutText.contains("[PKG-reference-not-local]"))
        // skd://title-2 is used by no playlist read here, but v2 and v3 may use it: a note, not an error.
        #expect(result.stdoutText.contains("master.m3u8:3:1: note: no media playlist read here uses the key skd://title-2; 2 of"))
        #expect(result.stdoutText.contains("[PKG-session-key-unverified]"))
        #expect(!result.stdoutText.contains("PKG-session-key-unused"))

        // With every media playlist read, the same session key is known to be unused: an error.
        try scratch.write("title/master.m3u8", "#EXTM3U\n#EXT-X-VERSION:5\n\(sessionKey)\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n")
        let complete = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(complete.status == 1)
        #expect(complete.stdoutText.contains("[PKG-session-key-unused]"))
    }

    @Test("a playlist the master names as I-frames must say EXT-X-I-FRAMES-ONLY (PKG-iframe-playlist)")
    func iFramePlaylist() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.64001f\"\nv1.m3u8\n"
                + "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.64001f\",URI=\"iframes.m3u8\"\n")
        try scratch.write("title/v1.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n")
        try scratch.write(
            "title/iframes.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXT-X-ENDLIST\n")
        let result = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("iframes.m3u8:1:1: error: the master names this playlist in an EXT-X-I-FRAME-STREAM-INF"))
        #expect(!result.stdoutText.contains("v1.m3u8:1:1: error"))
        try scratch.write(
            "title/iframes.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXT-X-I-FRAMES-ONLY\n#EXTINF:10,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXT-X-ENDLIST\n"
        )
        #expect(try SKDPackRunner.run(["validate", scratch.path("title")]).status == 0)
    }

    @Test("--template with --var and --allow-host: a library migrated to the new server passes, the original does not")
    func templateAudit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let audit = [
            "validate", "--template", "entitlement-rotation", "--var", "entitlement_url=https://new-lic.example.com/fps",
            "--allow-host", "new-lic.example.com",
        ]
        let before = try SKDPackRunner.run(audit + [scratch.path("library/legacy-title")])
        #expect(before.status == 1)
        #expect(before.stdoutText.contains("[TPL-key-mismatch]"))
        let identifiers = try SKDPackRunner.run(
            ["validate", "--allow-host", "lic.example.com", scratch.path("library/legacy-title")])
        #expect(identifiers.status == 0, "legacy skd://{id} keys name no server, so no host is checked")
        let migrated = try SKDPackRunner.run(
            ApplyReportTests.migrate + [scratch.path("library/legacy-title")])
        #expect(migrated.status == 0)
        let after = try SKDPackRunner.run(audit + [scratch.path("library/legacy-title")])
        #expect(after.status == 0, "\(after.stdoutText)")
        let elsewhere = try SKDPackRunner.run(
            ["validate", "--allow-host", "lic.example.com", scratch.path("library/legacy-title")])
        #expect(elsewhere.status == 1)
        #expect(
            elsewhere.stdoutText.contains(
                "players will ask new-lic.example.com for the license; allowed: lic.example.com [TPL-host-not-allowed]"))
    }

    @Test("a secret pinned with --var appears nowhere: not in messages, not in the report's arguments")
    func secretPinned() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "t.yaml",
            "name: tokened\nuri: \"skd://lic.example.com/fps?cid={content_id}&t={token}\"\nvariables:\n  content_id: {}\n  token:\n    secret: true\n"
        )
        try scratch.write(
            "title.m3u8",
            Self.media(
                Self.brokenKey.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES")
                    .replacingOccurrences(of: "skd://title-1", with: "skd://lic.example.com/fps?cid=42&t=old-token")))
        let arguments = ["validate", "--template", scratch.path("t.yaml"), "--var", "token=hunter2-secret"]
        let human = try SKDPackRunner.run(arguments + [scratch.path("title.m3u8")])
        #expect(human.status == 1)
        #expect(human.stdoutText.contains("[TPL-key-mismatch]"))
        #expect(!human.stdoutText.contains("hunter2-secret"))
        let json = try SKDPackRunner.run(arguments + ["--format", "json", scratch.path("title.m3u8")])
        #expect(json.status == 1)
        #expect(!json.stdoutText.contains("hunter2-secret"))
        #expect(json.stdoutText.contains("token=REDACTED"))
    }

    @Test("--var without --template, or naming no variable of it, is a usage error")
    func templateUsage() throws {
        let alone = try SKDPackRunner.run(["validate", "--var", "content_id=1", "x.m3u8"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--var needs --template"))
        let unknown = try SKDPackRunner.run(["validate", "--template", "entitlement", "--var", "cid=1", "x.m3u8"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("has no variable cid"))
        let misspelt = try SKDPackRunner.run([
            "validate", "--template", "entitlement", "--var", "entitlment_url=https://a.example", "x.m3u8",
        ])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("has no variable entitlment_url; did you mean entitlement_url?"))
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
        // A FairPlay product rule names Apple's document, not an RFC section that does not say it.
        #expect(method["specSection"]?.hasPrefix("Apple HLS Authoring Specification") == true)
    }
}

@Suite("skdpack apply --report, as a user runs it")
struct ApplyReportTests {
    static let migrate = [
        "apply", "--template", "entitlement-rotation", "--var", "entitlement_url=https://new-lic.example.com/fps",
        "--match", "(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)", "--in-place",
    ]

    @Test("--report FILE, repeated: each format by its extension, valid against the shipped schemas, every change listed")
    func reports() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let files = ["r.json", "r.xml", "r.junit.xml", "r.sarif"].map(scratch.path)
        let result = try SKDPackRunner.run(
            Self.migrate + files.flatMap { ["--report", $0] } + [scratch.path("library")])
        #expect(result.status == 0)
        let xml = try [UInt8](Data(contentsOf: URL(fileURLWithPath: files[1])))
        #expect(try ValidateCommandTests.xsd().problems(in: xml) == [])
        let jsonBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: files[0])))
        #expect(try ValidateCommandTests.jsonSchema().problems(in: jsonBytes) == [])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[0]))) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Int])
        #expect(summary["playlistsRead"] == 9)
        #expect(summary["changed"] == 7)
        #expect(summary["keysRewritten"] == 10)
        let playlists = try #require(json["playlists"] as? [[String: Any]])
        let changes = playlists.flatMap { ($0["changes"] as? [[String: Any]]) ?? [] }
        #expect(changes.filter { $0["tag"] as? String != "EXT-X-VERSION" }.count == 10)
        #expect(changes.allSatisfy { ($0["after"] as? String).map { !$0.contains("\n") } ?? true })
        #expect(XMLSchemaValidator.wellFormednessProblem(in: try [UInt8](Data(contentsOf: URL(fileURLWithPath: files[2])))) == nil)
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[3]))) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
    }

    @Test("a report name without a known extension is a usage error, and nothing is changed")
    func unknownExtension() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let before = try scratch.text("library/legacy-title/video-360p.m3u8")
        let result = try SKDPackRunner.run(Self.migrate + ["--report", scratch.path("r.txt"), scratch.path("library")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--report"))
        #expect(try scratch.text("library/legacy-title/video-360p.m3u8") == before)
    }

    @Test("secrets given with --var never reach a report")
    func secretsRedacted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "t.yaml",
            "name: tokened\nuri: \"skd://lic.example.com/fps?cid={content_id}&t={token}\"\nvariables:\n  content_id: {}\n  token:\n    secret: true\n"
        )
        let report = scratch.path("r.json")
        let result = try SKDPackRunner.run([
            "apply", "--template", scratch.path("t.yaml"), "--var", "content_id=42", "--var", "token=hunter2-secret",
            "--in-place", "--report", report, scratch.path("library/legacy-title"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(!text.contains("hunter2-secret"))
        #expect(text.contains("skd://lic.example.com/fps?cid=42"))
    }
}
