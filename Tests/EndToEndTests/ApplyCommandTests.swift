import Foundation
import SKDTestSupport
import Testing

/// A scratch directory with the example library copied in, removed afterwards.
struct Scratch {
    let root: URL

    /// `folder`: an empty folder to make beside the library, for a title a test writes itself.
    init(folder: String? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PackageLocation.root.appendingPathComponent("examples/library"), to: root.appendingPathComponent("library"))
        if let folder {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }
    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(relative))
    }
    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Every byte of every file under `relative`, by path: to prove that nothing changed.
    func snapshot(_ relative: String) throws -> [String: Data] {
        let base = path(relative)
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: base)!
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: base + "/" + name))
            }
        }
        return files
    }
}

@Suite("skdpack apply, as a user runs it")
struct ApplyCommandTests {
    @Test("--in-place rewrites atomically, keeps permissions, and does not touch unchanged files")
    func inPlace() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let video = scratch.path("library/legacy-title/video-360p.m3u8")
        let clear = scratch.path("library/clear-title/video-720p.m3u8")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: video)
        let clearBefore = try FileManager.default.attributesOfItem(atPath: clear)
        let result = try SKDPackRunner.run(
            [
                "apply", "--template", "skd://{content_id}/{key_index}", "--var", "content_id=new-42", "--allow-shared-content-id",
                "--in-place", scratch.path("library"),
            ],
            environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.text("library/legacy-title/video-360p.m3u8").contains(#"URI="skd://new-42/0""#))
        #expect(try scratch.text("library/legacy-title/master.m3u8").contains(#"EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://new-42/0""#))
        let attributes = try FileManager.default.attributesOfItem(atPath: video)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        let clearAfter = try FileManager.default.attributesOfItem(atPath: clear)
        #expect(clearAfter[.systemFileNumber] as? Int == clearBefore[.systemFileNumber] as? Int)
        #expect(clearAfter[.modificationDate] as? Date == clearBefore[.modificationDate] as? Date)
        #expect(result.stderr.contains("clear-title/video-720p.m3u8:6:1: warning:"))
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: scratch.path("library")).filter { $0.contains(".skdpack-") }
        #expect(leftovers.isEmpty)
        // The second run finds nothing to do: --check exits 0.
        let check = try SKDPackRunner.run([
            "apply", "--template", "skd://{content_id}/{key_index}", "--var", "content_id=new-42", "--allow-shared-content-id", "--check",
            scratch.path("library"),
        ])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("a tab in an EXTINF title is an error (RFC 8216 4.1) that keeps the playlist as it was, unless --disable lets it pass")
    func disableGrammarFinding() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n"
            + #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old/42",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
            + "\n#EXTINF:10,\tOpening\na.ts\n#EXT-X-ENDLIST\n"
        try scratch.write("tab.m3u8", playlist)
        let arguments = ["apply", "--template", "content-id", "--match", "^skd://old/(?<content_id>.+)$", "--in-place"]
        let refused = try SKDPackRunner.run(arguments + [scratch.path("tab.m3u8")])
        #expect(refused.status == 1)
        #expect(refused.stdoutText.contains("[HLS-tab-character]") || refused.stderr.contains("[HLS-tab-character]"))
        #expect(try scratch.text("tab.m3u8") == playlist)

        let passed = try SKDPackRunner.run(arguments + ["--disable", "HLS-tab-character", scratch.path("tab.m3u8")])
        #expect(passed.status == 0, "\(passed.stdoutText)\(passed.stderr)")
        let written = try scratch.text("tab.m3u8")
        #expect(written.contains(#"URI="skd://42""#))
        #expect(written.contains("#EXTINF:10,\tOpening\n"))

        // What decides what apply reads and writes cannot be let pass; an unknown name is a usage error.
        let guarded = try SKDPackRunner.run(arguments + ["--disable", "HLS-too-many-segments", scratch.path("tab.m3u8")])
        #expect(guarded.status == 2)
        #expect(guarded.stderr.contains("apply lets only the reader's grammar findings pass"))
        #expect(try SKDPackRunner.run(arguments + ["--disable", "HLS-nope", scratch.path("tab.m3u8")]).status == 2)
    }

    @Test("a master from standard input: its playlists are not looked for, and session keys they may use are kept")
    func masterFromStandardInput() throws {
        let sessionKey =
            #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://old/1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let master = "#EXTM3U\n#EXT-X-VERSION:5\n\(sessionKey)\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.64001f\"\nv.m3u8\n"
        let applied = try SKDPackRunner.run(
            ["apply", "--template", "content-id", "--match", "^skd://old/(?<content_id>.+)$", "-"], stdin: Data(master.utf8))
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdoutText == master)
        #expect(applied.stderr.contains("read from standard input, so the playlist it references cannot be found from here"))
        let validated = try SKDPackRunner.run(["validate", "-"], stdin: Data(master.utf8))
        #expect(validated.status == 0, "\(validated.stdoutText)")
        #expect(!validated.stdoutText.contains("PKG-missing-playlist"))
        #expect(validated.stdoutText.contains("[PKG-reference-not-local]"))
    }

    @Test("a title with a remote variant: a session key no local playlist uses is kept, not removed as stale")
    func remoteVariantKeepsSessionKey() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        let key = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old/1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let remoteKey = key.replacingOccurrences(of: "skd://old/1", with: "skd://remote/9")
            .replacingOccurrences(of: "EXT-X-KEY", with: "EXT-X-SESSION-KEY")
        try scratch.write(
            "title/master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n\(remoteKey)\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=2\nhttps://cdn.example.com/v2.m3u8\n")
        try scratch.write(
            "title/v1.m3u8", "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n\(key)\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n")
        let result = try SKDPackRunner.run(
            ["apply", "--template", "content-id", "--match", "^skd://old/(?<content_id>.+)$", "--in-place", scratch.path("title")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.text("title/v1.m3u8").contains(#"URI="skd://1""#))
        #expect(try scratch.text("title/master.m3u8").contains(remoteKey))
    }

    @Test("symbolic links: refused unless --follow-symlinks, then the file they point at is rewritten")
    func symbolicLinks() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = scratch.path("library/legacy-title/video-360p.m3u8")
        let link = scratch.path("link.m3u8")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let arguments = ["apply", "--template", "content-id", "--var", "content_id=linked", "--in-place"]
        let refused = try SKDPackRunner.run(arguments + [link])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("it is a symbolic link, and links are followed only with --follow-symlinks"))
        let followed = try SKDPackRunner.run(arguments + ["--follow-symlinks", link])
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "the link is still a link")
        #expect(try scratch.text("library/legacy-title/video-360p.m3u8").contains(#"URI="skd://linked""#))
    }

    @Test("--check exits 1 and names what would change, writing nothing")
    func check() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let before = try scratch.text("library/crlf-title/index.m3u8")
        let result = try SKDPackRunner.run([
            "apply", "--template", "content-id", "--var", "content_id=x", "--check", scratch.path("library/crlf-title"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("crlf-title/index.m3u8: would change (2 changes)"))
        #expect(try scratch.text("library/crlf-title/index.m3u8") == before)
    }

    @Test("--diff is a patch: applied with patch(1) it gives what --output writes")
    func diffIsAPatch() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let arguments = ["apply", "--template", "key-id", "--session-keys"]
        let diff = try SKDPackRunner.run(arguments + ["--diff", scratch.path("library/multi-drm-title")])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdoutText.hasPrefix("--- a/audio-en.m3u8\n+++ b/audio-en.m3u8\n@@ -9,7 +9,7 @@\n"))
        let output = try SKDPackRunner.run(arguments + ["--output", scratch.path("out"), scratch.path("library/multi-drm-title")])
        #expect(output.status == 0, "\(output.stderr)")
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
        patch.arguments = ["-s", "-p1", "-d", scratch.path("library/multi-drm-title")]
        let input = Pipe()
        patch.standardInput = input
        try patch.run()
        input.fileHandleForWriting.write(diff.stdout)
        try input.fileHandleForWriting.close()
        patch.waitUntilExit()
        #expect(patch.terminationStatus == 0)
        for name in ["master.m3u8", "video-720p.m3u8", "audio-en.m3u8", "iframes-720p.m3u8"] {
            #expect(try scratch.text("library/multi-drm-title/\(name)") == scratch.text("out/\(name)"), "\(name)")
        }
    }

    @Test("--output mirrors the input tree")
    func output() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try SKDPackRunner.run(
            [
                "apply", "--template", "skd://{content_id}/{key_index}", "--var", "content_id=t", "--allow-shared-content-id",
                "--assume-encrypted", "--output",
                scratch.path("out"),
                scratch.path("library"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: scratch.path("out")).filter { $0.hasSuffix(".m3u8") }.sorted()
        #expect(
            written == [
                "clear-title/master.m3u8", "clear-title/video-720p.m3u8", "crlf-title/index.m3u8", "legacy-title/master.m3u8",
                "legacy-title/video-360p.m3u8", "multi-drm-title/audio-en.m3u8", "multi-drm-title/iframes-720p.m3u8",
                "multi-drm-title/master.m3u8", "multi-drm-title/video-720p.m3u8",
            ])
        #expect(try scratch.text("out/clear-title/video-720p.m3u8").contains(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://t/0""#))
        #expect(result.stderr.contains("apply: 9 playlists read, 8 changed, 1 unchanged, 0 failed"))
    }

    @Test("--diff of a title one of whose playlists fails shows no hunk: the title is changed whole or not at all")
    func diffOfAFailedTitle() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        func key(_ kid: String) -> String {
            "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://old/\(kid)\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYID=0x\(kid)"
        }
        let one = String(repeating: "1", count: 32)
        let two = String(repeating: "2", count: 32)
        func media(_ keys: [String]) -> String {
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n"
                + keys.enumerated().map { "\($0.element)\n#EXTINF:6,\ns\($0.offset).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        }
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        try scratch.write("t/360p.m3u8", media([key(one)]))
        try scratch.write("t/720p.m3u8", media([key(one), key(two)]))
        try scratch.write(
            "t/master.m3u8",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n360p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\n720p.m3u8\n")
        // One URI for the title where 720p's key rotates: 720p fails, so 360p would not change either.
        let arguments = [
            "apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--var", "content_id=t",
        ]
        let diff = try SKDPackRunner.run(arguments + ["--diff", scratch.path("t")])
        #expect(diff.status == 1, "\(diff.stderr)")
        #expect(diff.stderr.contains("[TPL-rotation-folded]"), "\(diff.stderr)")
        #expect(diff.stdoutText.isEmpty, "no hunk of a title left as it was: \(diff.stdoutText)")
        // The cause is told first, and the consequences name it alone (not the master it held back).
        let lines = diff.stderr.split(separator: "\n")
        let cause = try #require(lines.firstIndex { $0.contains("[TPL-rotation-folded]") })
        let consequences = lines.indices.filter { lines[$0].contains("[PKG-title-failed]") || lines[$0].contains("[PKG-media-failed]") }
        #expect(consequences.count == 2 && consequences.allSatisfy { $0 > cause }, "\(diff.stderr)")
        #expect(diff.stderr.contains("not updated: \(scratch.path("t/720p.m3u8")) of its title could not be"), "\(diff.stderr)")
        // The same title with a URI per key: its hunks, every playlist's.
        let fixed = try SKDPackRunner.run(
            ["apply", "--template", "entitlement-kid", "--var", "entitlement_url=https://lic.example.com/fps", "--var", "content_id=t"]
                + ["--diff", scratch.path("t")])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stdoutText.contains("+++ b/360p.m3u8") && fixed.stdoutText.contains("+++ b/720p.m3u8"), "\(fixed.stdoutText)")
    }

    @Test("a key inserted into clear media (--assume-encrypted) is counted once, as written, in the summary and the report")
    func clearMediaInsertionCountedOnce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for destination in [["--diff"], ["--check"], ["--in-place"]] {
            let run = try SKDPackRunner.run(
                [
                    "apply", "--template", "skd://{content_id}", "--var", "content_id=t", "--assume-encrypted", "--report",
                    scratch.path("r.json"),
                ]
                    + destination + [scratch.path("library/clear-title/video-720p.m3u8")])
            #expect(run.status <= 1, "\(destination): \(run.stderr)")
            #expect(run.stderr.contains("keys rewritten 0, inserted 1, removed 0"), "\(destination): \(run.stderr)")
            let report = try scratch.text("r.json")
            #expect(report.components(separatedBy: #""action" : "inserted""#).count == 2, "\(destination): \(report)")
        }
        #expect(try scratch.text("library/clear-title/video-720p.m3u8").components(separatedBy: "#EXT-X-KEY:").count == 2)
    }

    @Test("standard input to standard output; CRLF and the missing final newline survive")
    func standardStreams() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try Data(contentsOf: URL(fileURLWithPath: scratch.path("library/crlf-title/index.m3u8")))
        let result = try SKDPackRunner.run(["apply", "--template", "skd://{content_id}", "--var", "content_id=c9", "-"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = String(decoding: input, as: UTF8.self)
            .replacingOccurrences(of: "skd://crlf-0007", with: "skd://c9")
            .replacingOccurrences(of: "#EXT-X-VERSION:3", with: "#EXT-X-VERSION:5")
        #expect(result.stdoutText == expected)
    }

    @Test("an error writes nothing to standard output and exits 1, with the line")
    func errorOnStandardOutput() throws {
        let playlist = Data("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/key\"\n#EXTINF:4,\na.ts\n".utf8)
        let result = try SKDPackRunner.run(
            ["apply", "--template", "skd://{content_id}", "--var", "content_id=c", "-"], stdin: playlist, environment: ["NO_COLOR": "1"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("-:2:1: error: key period 0 is encrypted with METHOD=AES-128"))
    }

    @Test("hostile --var values: a quote or a control character refused before anything is read (exit 2); the rest percent-encoded")
    func hostileVar() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = "library/legacy-title/video-360p.m3u8"
        let before = try scratch.text(target)
        for template in ["content-id", "skd://{content_id}"] {
            let refused = try SKDPackRunner.run(
                [
                    "apply", "--template", template, "--var", "content_id=x\",URI=\"skd://evil\n#EXT-X-ENDLIST", "--in-place",
                    scratch.path(target),
                ])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--var content_id: the value holds \\\""))
            #expect(try scratch.text(target) == before)
        }
        let encoded = try SKDPackRunner.run(
            [
                "apply", "--template", "skd://{content_id}", "--var", "content_id=x,URI=skd://evil #EXT-X-ENDLIST", "--in-place",
                scratch.path("library/legacy-title"),
            ])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let after = try scratch.text(target)
        #expect(after.split(separator: "\n").count == before.split(separator: "\n").count)
        #expect(after.contains(#"URI="skd://x,URI=skd://evil%20%23EXT-X-ENDLIST""#))
    }

    @Test("secrets are REDACTED in messages and diffs")
    func secrets() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let token = "Tok3n-abcdefghijklmnopqrstuvwxyz"
        let diff = try SKDPackRunner.run([
            "apply", "--template", "expressplay-token", "--var", "token=\(token)", "--diff", scratch.path("library/legacy-title"),
        ])
        #expect(diff.status == 0)
        #expect(diff.stdoutText.contains("ExpressPlayToken=REDACTED"))
        #expect(!diff.stdoutText.contains(token) && !diff.stderr.contains(token))
        let bad = try SKDPackRunner.run([
            "apply", "--template", "expressplay-token", "--var", "token=\(token) bad", "--check", scratch.path("library/legacy-title"),
        ])
        // A value given for the run that breaks the template is one message before the run (exit 2).
        #expect(bad.status == 2)
        #expect(!bad.stderr.contains(token))
        #expect(bad.stderr.contains("REDACTED"))
        #expect(bad.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(bad.stderr)")
    }
}

@Suite("skdpack render, resolve and templates")
struct TemplateCommandTests {
    @Test("render prints the URI and its license URL")
    func render() throws {
        let result = try SKDPackRunner.run(
            ["render", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--var", "content_id=title 42"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "skd://lic.example.com/fps?cid=title%2042\nhttps://lic.example.com/fps?cid=title%2042\n")
    }

    @Test("render with built-ins, and a host the template does not allow")
    func renderBuiltIns() throws {
        let result = try SKDPackRunner.run(
            [
                "render", "--template", "skd://{title_dir}.example.com/{playlist_stem}/{key_index}", "--playlist", "lib/t7/video.m3u8",
                "--key-index", "3",
            ])
        #expect(result.stdoutText == "skd://t7.example.com/video/3\nhttps://t7.example.com/video/3\n")
        let missing = try SKDPackRunner.run(["render", "--template", "content-id"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("{content_id} has no value"))
        #expect(
            missing.stderr.contains("give --var content_id=…, a catalogue column, or a --path-pattern or --match group named content_id"))
    }

    @Test(
        "resolve",
        arguments: [
            ("skd://lic.example.com/fps?cid=1", 0, "https://lic.example.com/fps?cid=1\n"),
            ("skd://title-42", 0, ""),
            ("https://lic.example.com/x", 1, ""),
        ])
    func resolve(uri: String, status: Int32, output: String) throws {
        let result = try SKDPackRunner.run(["resolve", uri])
        #expect(result.status == status)
        #expect(result.stdoutText == output)
    }

    @Test("resolve --allow-host")
    func allowHost() throws {
        #expect(try SKDPackRunner.run(["resolve", "--allow-host", "*.example.com", "skd://lic.example.com/x"]).status == 0)
        #expect(try SKDPackRunner.run(["resolve", "--allow-host", "lic.example.com", "skd://evil.test/x"]).status == 1)
    }

    @Test("templates list, show and check")
    func templates() throws {
        let list = try SKDPackRunner.run(["templates", "list"])
        #expect(list.status == 0)
        for name in ["content-id", "entitlement", "expressplay-token", "key-id"] { #expect(list.stdoutText.contains(name)) }
        let show = try SKDPackRunner.run(["templates", "show", "key-id"])
        #expect(
            show.stdoutText
                == (try String(contentsOf: PackageLocation.root.appendingPathComponent("templates/key-id.yaml"), encoding: .utf8)))
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("bad.yaml", "name: bad\nuri: \"skd://{id|nope}\"\n")
        let check = try SKDPackRunner.run([
            "templates", "check", PackageLocation.root.appendingPathComponent("templates/entitlement.yaml").path, scratch.path("bad.yaml"),
        ])
        #expect(check.status == 1)
        #expect(check.stdoutText.contains("entitlement.yaml: ok"))
        #expect(check.stderr.contains("bad.yaml:2:14: error: uri: unknown filter 'nope'"))
    }
}

@Suite("the example scripts")
struct ExampleScriptTests {
    func run(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [PackageLocation.root.appendingPathComponent(script).path]
        var environment = ProcessInfo.processInfo.environment
        environment["SKDPACK"] = SKDPackRunner.executable.path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("package.sh packages a title and checks it")
    func package() throws {
        let result = try run("examples/package.sh")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("apply: 4 playlists read, 0 would change, 4 unchanged, 0 failed"))
        #expect(result.output.contains("https://lic.example.com/fps?cid=title-2001"))
    }

    @Test("migrate.sh migrates the library, leaves nothing to do, and the result validates without a warning")
    func migrate() throws {
        let result = try run("examples/migrate.sh")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("nothing left to migrate"))
        #expect(result.output.contains("0 errors, 0 warnings"), "\(result.output)")
    }
}
