import Foundation
import SKDTestSupport
import Testing

/// apply and validate over a generated library: jobs, shards and merged reports.
@Suite("a library: --jobs, --shard and report merge")
struct LibraryRunTests {
    /// A JSON report without its `run` section, the only part that may differ between runs.
    static func content(_ data: Data) throws -> NSDictionary {
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        document["run"] = nil
        return document as NSDictionary
    }

    static let migrate = [
        "apply", "--template", "entitlement", "--var", "entitlement_url=https://new-lic.example.com/fps",
        "--match", "(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)",
    ]

    @Test("the library is valid as generated")
    func generatedIsValid() throws {
        let library = try LibraryFixture(titles: 3)
        defer { library.remove() }
        let result = try SKDPackRunner.run(["validate", library.path()])
        #expect(result.status == 0, "\(result.stdoutText)")
        #expect(result.stdoutText.hasSuffix("21 playlists checked: 0 errors, 0 warnings, 0 notes\n"))
    }

    @Test("--jobs 1 and --jobs 2 give the same reports, for validate and for apply")
    func jobsDoNotChangeReports() throws {
        let library = try LibraryFixture(titles: 40)
        defer { library.remove() }
        let one = try SKDPackRunner.run(["validate", "--jobs", "1", "--format", "json", library.path()])
        let two = try SKDPackRunner.run(["validate", "--jobs", "2", "--format", "json", library.path()])
        #expect(one.status == 0)
        #expect(try Self.content(one.stdout) == Self.content(two.stdout))

        let reportOne = library.path("one.json")
        let reportTwo = library.path("two.json")
        let checkOne = try SKDPackRunner.run(Self.migrate + ["--check", "--jobs", "1", "--report", reportOne, library.path()])
        let checkTwo = try SKDPackRunner.run(Self.migrate + ["--check", "--jobs", "2", "--report", reportTwo, library.path()])
        #expect(checkOne.status == 1, "--check with changes to make exits 1")
        #expect(checkOne.stderr == checkTwo.stderr)
        let dataOne = try Data(contentsOf: URL(fileURLWithPath: reportOne))
        let dataTwo = try Data(contentsOf: URL(fileURLWithPath: reportTwo))
        #expect(try Self.content(dataOne) == Self.content(dataTwo))
        let summary = try #require(Self.content(dataOne)["summary"] as? [String: Int])
        #expect(summary["playlistsRead"] == 280)
        #expect(summary["keysRewritten"] == 280, "one FairPlay key per playlist: 240 in media, 40 session keys")
        #expect(summary["sessionKeys"] == 40)
    }

    @Test("shards take every package once; merged, they give the report of one run")
    func shardsMerge() throws {
        let library = try LibraryFixture(titles: 30)
        defer { library.remove() }
        let whole = try SKDPackRunner.run(["validate", "--format", "json", library.path()])
        var shardFiles: [String] = []
        var counts: [Int] = []
        for index in 0..<3 {
            let shard = try SKDPackRunner.run(["validate", "--shard", "\(index)/3", "--format", "json", library.path()])
            #expect(shard.status == 0)
            let file = library.path("shard-\(index).json")
            try shard.stdout.write(to: URL(fileURLWithPath: file))
            shardFiles.append(file)
            counts.append(((try Self.content(shard.stdout)["playlists"] as? [Any]) ?? []).count)
        }
        #expect(counts.reduce(0, +) == 210)
        #expect(counts.allSatisfy { $0 % 7 == 0 && $0 > 0 }, "a title's seven playlists stay together: \(counts)")
        let merged = try SKDPackRunner.run(["report", "merge"] + shardFiles)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.content(merged.stdout) == Self.content(whole.stdout))
        let run = try #require(try JSONSerialization.jsonObject(with: merged.stdout) as? [String: Any])["run"] as? [String: Any]
        #expect(run?["arguments"] as? [String] == ["--format", "json", library.path()])

        let twice = try SKDPackRunner.run(["report", "merge", shardFiles[0], shardFiles[1], shardFiles[0]])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("shard 0/3 is given twice: \(shardFiles[0]) and \(shardFiles[0])"), "\(twice.stderr)")
    }

    @Test("merge refuses what is not whole: missing, repeated, foreign shards; --allow-partial says it is partial")
    func mergeRefusesPartial() throws {
        let library = try LibraryFixture(titles: 12)
        defer { library.remove() }
        func shard(_ shard: String, _ extra: [String] = [], format: String = "json") throws -> String {
            let file = library.path("shard-\(shard.replacingOccurrences(of: "/", with: "-"))\(extra.isEmpty ? "" : "-x").\(format)")
            let run = try SKDPackRunner.run(["validate", "--shard", shard, "--format", format] + extra + [library.path()])
            try run.stdout.write(to: URL(fileURLWithPath: file))
            return file
        }
        let quarters = try (0..<4).map { try shard("\($0)/4") }
        let all = try SKDPackRunner.run(["report", "merge"] + quarters)
        #expect(all.status == 0, "\(all.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: all.stdout) as? [String: Any])["run"] as? [String: Any]
        #expect(run?["partial"] == nil && run?["shard"] == nil)

        let half = try SKDPackRunner.run(["report", "merge", quarters[0], quarters[1]])
        #expect(half.status == 2)
        #expect(half.stderr.contains("missing shards 2/4, 3/4"), "\(half.stderr)")
        #expect(half.stdout.isEmpty)

        let mixed = try SKDPackRunner.run(["report", "merge", quarters[0], try shard("1/3")])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("is shard 1/3 of 3"), "\(mixed.stderr)")

        let other = try SKDPackRunner.run(["report", "merge", quarters[0], try shard("1/4", ["--disable", "FPS-iv"])] + quarters[2...])
        #expect(other.status == 2)
        #expect(other.stderr.contains("not shards of one run"), "\(other.stderr)")

        for format in ["json", "xml"] {
            let partial = try SKDPackRunner.run(["report", "merge", "--allow-partial", "--format", format, quarters[0], quarters[2]])
            #expect(partial.status == 0, "\(partial.stderr)")
            if format == "json" {
                #expect(try ValidateCommandTests.jsonSchema().problems(in: [UInt8](partial.stdout)) == [])
                let run = try #require(try JSONSerialization.jsonObject(with: partial.stdout) as? [String: Any])["run"] as? [String: Any]
                #expect(run?["partial"] as? Bool == true)
                #expect(run?["missingShards"] as? [String] == ["1/4", "3/4"])
            } else {
                #expect(try ValidateCommandTests.xsd().problems(in: [UInt8](partial.stdout)) == [])
                #expect(partial.stdoutText.contains(#"partial="true""#))
                #expect(partial.stdoutText.contains("<missingShard>1/4</missingShard>"))
                // An XML partial report reads back as partial.
                let file = library.path("partial.xml")
                try partial.stdout.write(to: URL(fileURLWithPath: file))
                let again = try SKDPackRunner.run(["report", "merge", "--allow-partial", file, quarters[1], quarters[3]])
                #expect(again.status == 2, "a partial merge is not a shard: \(again.stderr)")
            }
        }
    }

    @Test("apply in shards: the merged reports equal one run's report")
    func applyShardsMerge() throws {
        let library = try LibraryFixture(titles: 24)
        defer { library.remove() }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let whole = reports.appendingPathComponent("whole.json").path
        #expect(try SKDPackRunner.run(Self.migrate + ["--check", "--report", whole, library.path()]).status == 1)
        var shards: [String] = []
        for index in 0..<4 {
            let file = reports.appendingPathComponent("shard-\(index).json").path
            let run = try SKDPackRunner.run(Self.migrate + ["--check", "--shard", "\(index)/4", "--report", file, library.path()])
            #expect(run.status == 1)
            shards.append(file)
        }
        let merged = try SKDPackRunner.run(["report", "merge"] + shards)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.content(merged.stdout) == Self.content(Data(contentsOf: URL(fileURLWithPath: whole))))
        let xml = try SKDPackRunner.run(["report", "merge", "--format", "xml"] + shards)
        #expect(try ValidateCommandTests.xsd().problems(in: [UInt8](xml.stdout)) == [])

        // Shards that wrote XML merge to the same report (here back to JSON), and XML and JSON shards mix.
        var xmlShards: [String] = []
        for index in 0..<4 {
            let file = reports.appendingPathComponent("shard-\(index).xml").path
            #expect(
                try SKDPackRunner.run(Self.migrate + ["--check", "--shard", "\(index)/4", "--report", file, library.path()]).status == 1)
            xmlShards.append(file)
        }
        let fromXML = try SKDPackRunner.run(["report", "merge"] + xmlShards)
        #expect(fromXML.status == 0, "\(fromXML.stderr)")
        #expect(try Self.content(fromXML.stdout) == Self.content(merged.stdout))
        let mixed = try SKDPackRunner.run(["report", "merge", xmlShards[0], shards[1], xmlShards[2], shards[3]])
        #expect(try Self.content(mixed.stdout) == Self.content(merged.stdout))
        let broken = reports.appendingPathComponent("broken.xml").path
        try Data("<report xmlns=\"urn:skdpack:report:1\"".utf8).write(to: URL(fileURLWithPath: broken))
        let refused = try SKDPackRunner.run(["report", "merge", broken])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("broken.xml is not an skdpack XML report: line 1, column 1: not well-formed XML: unclosed token\n"),
            "\(refused.stderr)")
    }

    @Test("a migration run in shards, in place, ends where one run ends")
    func shardedMigration() throws {
        let library = try LibraryFixture(titles: 12)
        defer { library.remove() }
        for index in 0..<4 {
            let shard = try SKDPackRunner.run(Self.migrate + ["--in-place", "--shard", "\(index)/4", library.path()])
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let check = try SKDPackRunner.run(Self.migrate + ["--check", library.path()])
        #expect(check.status == 0, "\(check.stderr)")
        let audit = try SKDPackRunner.run([
            "validate", "--template", "entitlement", "--var", "entitlement_url=https://new-lic.example.com/fps",
            library.path(),
        ])
        #expect(audit.status == 0, "\(audit.stdoutText)")
    }

    @Test("a progress bar on a terminal, cleared at the end; none with --no-progress")
    func progress() throws {
        let library = try LibraryFixture(titles: 5)
        defer { library.remove() }
        let shown = try SKDPackRunner.runOnTerminal(["validate", library.path()])
        #expect(shown.contains("] 35/35 playlists"))
        #expect(shown.contains("\r\u{1B}[K"), "the bar is cleared before the summary")
        #expect(shown.contains("35 playlists checked: 0 errors"))
        let hidden = try SKDPackRunner.runOnTerminal(["validate", "--no-progress", library.path()])
        #expect(!hidden.contains("/35 playlists"))
        #expect(hidden.contains("35 playlists checked: 0 errors"))
    }

    @Test("a corrupted and an unreadable playlist in the middle are reported, and the rest is done")
    func badFilesDoNotStopABatch() throws {
        let library = try LibraryFixture(titles: 10)
        defer { library.remove() }
        let corrupted = library.path("title-0004/video-720p.m3u8")
        var garbage = [UInt8](repeating: 0, count: 4096)
        for index in garbage.indices { garbage[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ 13) }
        try Data(garbage).write(to: URL(fileURLWithPath: corrupted))
        // A "playlist" that cannot be read: the master of title-0006 references a directory.
        try FileManager.default.removeItem(atPath: library.path("title-0006/audio-en.m3u8"))
        try FileManager.default.createDirectory(atPath: library.path("title-0006/audio-en.m3u8"), withIntermediateDirectories: false)

        let validate = try SKDPackRunner.run(["validate", "--jobs", "2", library.path()])
        #expect(validate.status == 2, "the tool could not read one playlist")
        // The playlist not read is said once, on standard error, and counted apart from those checked.
        #expect(validate.stderr.components(separatedBy: "title-0006/audio-en.m3u8").count == 2, "\(validate.stderr)")
        #expect(validate.stdoutText.contains("title-0004/video-720p.m3u8:1:1: error:"))
        #expect(!validate.stdoutText.contains("title-0006/audio-en.m3u8"))
        #expect(validate.stdoutText.contains("69 playlists checked") && validate.stdoutText.contains("; 1 path not read"))

        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let migrate = try SKDPackRunner.run(Self.migrate + ["--in-place", "--jobs", "2", "--report", reportPath, library.path()])
        #expect(migrate.status == 2)
        let xml = try [UInt8](Data(contentsOf: URL(fileURLWithPath: reportPath)))
        #expect(try ValidateCommandTests.xsd().problems(in: xml) == [])
        let xmlText = String(decoding: xml, as: UTF8.self)
        #expect(xmlText.contains(#"rule="PKG-unreadable""#))
        #expect(xmlText.contains(#"rule="PKG-media-failed""#))
        #expect(try Data(contentsOf: URL(fileURLWithPath: corrupted)) == Data(garbage), "a playlist with an error is left as it was")
        let audit = try SKDPackRunner.run([
            "validate", "--template", "entitlement", "--var", "entitlement_url=https://new-lic.example.com/fps",
            "--format", "json", library.path(),
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: audit.stdout) as? [String: Any])
        let playlists = try #require(report["playlists"] as? [[String: Any]])
        let failing = playlists.filter { $0["status"] as? String == "failed" }.compactMap { $0["path"] as? String }
        // Every other title is migrated; the two broken titles are left whole as they were (a title is
        // changed whole or not at all), so every playlist of theirs still has the old keys.
        let root = library.path() + "/"
        let names = ["audio-en", "iframes", "master", "video-1080p", "video-360p", "video-540p", "video-720p"]
        #expect(
            failing.map { $0.replacingOccurrences(of: root, with: "") }
                == ["title-0004", "title-0006"].flatMap { title in names.map { "\(title)/\($0).m3u8" } }, "\(failing)")
        #expect(playlists.count == 70)
    }

    @Test("a --path-pattern migration rewrites exactly the FairPlay keys and session keys, as a reference rewrite does")
    func pathPatternMigration() throws {
        let library = try LibraryFixture(titles: 200)
        defer { library.remove() }
        let files = try FileManager.default.subpathsOfDirectory(atPath: library.path()).filter { $0.hasSuffix(".m3u8") }.sorted()
        #expect(files.count == 1400)
        // The reference: a plain text substitution on the FairPlay lines only, done here, line by line.
        var expected: [String: String] = [:]
        for file in files {
            let title = String(file.prefix { $0 != "/" })
            let text = try String(contentsOfFile: library.path(file), encoding: .utf8)
            expected[file] = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.contains(#"KEYFORMAT="com.apple.streamingkeydelivery""#)
                    ? line.replacingOccurrences(
                        of: #"URI="skd://\#(title)""#, with: #"URI="skd://new-lic.example.com/fps?cid=\#(title)""#)
                    : String(line)
            }.joined(separator: "\n")
        }
        let result = try SKDPackRunner.run([
            "apply", "--template", "entitlement", "--var", "entitlement_url=https://new-lic.example.com/fps",
            "--path-pattern", "(?<content_id>title-[0-9]+)/[^/]+$", "--in-place", "--jobs", "2", library.path(),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1400 playlists read, 1400 changed"))
        for file in files {
            #expect(try String(contentsOfFile: library.path(file), encoding: .utf8) == expected[file], "\(file)")
        }
        let check = try SKDPackRunner.run([
            "apply", "--template", "entitlement", "--var", "entitlement_url=https://new-lic.example.com/fps",
            "--path-pattern", "(?<content_id>title-[0-9]+)/[^/]+$", "--check", library.path(),
        ])
        #expect(check.status == 0, "--check afterwards is clean: \(check.stderr)")
    }

    @Test("--shard and --jobs are checked")
    func usage() throws {
        for arguments in [["--shard", "3/3"], ["--shard", "x"], ["--jobs", "0"]] {
            let result = try SKDPackRunner.run(["validate"] + arguments + ["x.m3u8"])
            #expect(result.status == 2, "\(arguments)")
        }
    }
}

/// `--exclude`, as a batch job over a library uses it: titles left out are neither read nor written, the
/// fast path and ArgumentParser take it alike, and a pattern that leaves out nothing is said.
@Suite("a library: --exclude")
struct ExcludeTests {
    /// Every file under `root` with its bytes.
    static func snapshot(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
        for case let url as URL in walker where url.pathExtension == "m3u8" {
            files[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("apply --in-place --exclude changes every title but those left out, byte for byte; validate reads the others only")
    func titlesLeftOut() throws {
        let library = try LibraryFixture(titles: 6)
        defer { library.remove() }
        let before = try Self.snapshot(library.root)
        let left = ["title-0001", "title-0004"]
        // A name (a folder: 1 left out), and a path with a wildcard (the 7 playlists of another title).
        let exclude = ["--exclude", "title-0001", "--exclude", "title-000[4]/*"]
        let applied = try SKDPackRunner.run(LibraryRunTests.migrate + exclude + ["--in-place", library.path()])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stderr.contains("left out 8 files or folders by --exclude"), "\(applied.stderr)")
        let after = try Self.snapshot(library.root)
        #expect(before.keys.sorted() == after.keys.sorted())
        for (path, bytes) in before {
            let isLeftOut = left.contains { path.hasPrefix("/\($0)/") }
            #expect((after[path] == bytes) == isLeftOut, "\(path): \(isLeftOut ? "changed though left out" : "not changed")")
        }
        let validated = try SKDPackRunner.run(["validate", "--format", "json"] + exclude + [library.path()])
        let report = try #require(try JSONSerialization.jsonObject(with: validated.stdout) as? [String: Any])
        let paths = try #require(report["playlists"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(paths.count == 4 * 7)
        #expect(!paths.contains { path in left.contains { path.contains("/\($0)/") } })
    }

    @Test("a pattern that leaves out nothing is a warning; one that leaves out every playlist leaves nothing to read (exit 2)")
    func patternsThatMiss() throws {
        let library = try LibraryFixture(titles: 2)
        defer { library.remove() }
        let typo = try SKDPackRunner.run(["validate", "--exclude", "titel-0001", library.path()])
        #expect(typo.status == 0)
        #expect(typo.stderr.contains("warning: the pattern titel-0001 of --exclude left out nothing"), "\(typo.stderr)")
        #expect(typo.stdoutText.contains("14 playlists checked"))
        let everything = try SKDPackRunner.run(["validate", "--exclude", "*", library.path()])
        #expect(everything.status == 2)
        #expect(everything.stderr.contains("no *.m3u8 file there that --exclude did not leave out"), "\(everything.stderr)")
        // apply, which writes, takes a pattern that leaves out nothing for a mistake: nothing written, exit 2,
        // the name it most likely meant, and a path written from the working folder shown from the directory.
        let before = try ExcludeTests.snapshot(library.root)
        let migrate = try SKDPackRunner.run(LibraryRunTests.migrate + ["--exclude", "titel-0001", "--in-place", library.path()])
        #expect(migrate.status == 2)
        #expect(
            migrate.stderr.contains(
                "error: the pattern titel-0001 of --exclude left out nothing: no file or folder walked matches it (did you mean title-0001?)"
            ),
            "\(migrate.stderr)")
        #expect(migrate.stderr.contains("nothing written"))
        #expect(try ExcludeTests.snapshot(library.root) == before)
        let pathFromHere = try SKDPackRunner.run(
            LibraryRunTests.migrate + ["--exclude", library.path("title-0001"), "--in-place", library.path()])
        #expect(pathFromHere.status == 2)
        #expect(pathFromHere.stderr.contains("(did you mean title-0001?)"), "\(pathFromHere.stderr)")
        // Not a plain command line (`--exclude=…`): ArgumentParser reads it, with the same result.
        let spelled = try SKDPackRunner.run(["validate", "--exclude=titel-0001", library.path()])
        #expect(spelled.stderr == typo.stderr && spelled.stdoutText == typo.stdoutText)
    }
}
