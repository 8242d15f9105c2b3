import Foundation
import SKDTestSupport
import Testing

/// The README's promises about `apply`, as properties of the built `skdpack` run the way users run it, over
/// generated libraries (``GeneratedLibrary``: key rotation, clear leads, masters with and without session
/// keys, three old URI forms, LF and CRLF) and every template form and variable source a user writes.
@Suite("apply's promises (generated libraries, the built binary)")
struct PromiseTests {
    static let newServer = "https://new-lic.example.com/fps"
    static let token = "NewT0ken-abcdefghijklmnopqrstuvwxyz"

    /// One run a user writes: a template form and where its values come from.
    struct Job: CustomStringConvertible, Sendable {
        var name: String
        /// The old URI forms it can read (a `--match` migration reads the forms with a content id in them).
        var forms: [GeneratedLibrary.OldForm]
        var arguments: @Sendable (GeneratedLibrary) throws -> [String]
        var description: String { name }
    }

    static let jobs: [Job] = [
        Job(name: "content-id from the path", forms: GeneratedLibrary.OldForm.allCases) { _ in
            ["--template", "content-id", "--path-pattern", "(?<content_id>title-[0-9]+-[0-9]+)/"]
        },
        Job(name: "entitlement, --match migration", forms: [.contentID, .entitlement]) { _ in
            [
                "--template", "entitlement", "--var", "entitlement_url=\(newServer)", "--match",
                "(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)",
            ]
        },
        // The README's first migration: a content id read from right after `skd://`, which the URI the
        // first run writes has there too (its host): the second run must keep that key, not read it again.
        Job(name: "entitlement, --match right after skd://", forms: [.contentID]) { _ in
            ["--template", "entitlement", "--var", "entitlement_url=\(newServer)", "--match", "^skd://(?<content_id>[^/?&]+)"]
        },
        Job(name: "entitlement from a catalogue", forms: GeneratedLibrary.OldForm.allCases) { library in
            ["--template", "entitlement", "--catalog", try library.writeCatalog(server: newServer)]
        },
        // One token for every title: titles that share their keys, said so.
        Job(name: "expressplay-token, one token", forms: GeneratedLibrary.OldForm.allCases) { _ in
            ["--template", "expressplay-token", "--var", "token=\(token)", "--allow-shared-content-id"]
        },
        Job(name: "key-id from the Widevine KEYID", forms: GeneratedLibrary.OldForm.allCases) { _ in ["--template", "key-id"] },
        Job(name: "inline template, --match on the entitlement form", forms: [.entitlement]) { _ in
            ["--template", "skd://keys.example.com/{content_id|upper}?v=2", "--match", "cid=(?<content_id>[^&]+)"]
        },
    ]

    static let seeds: [UInt64] = Array(1...4)

    @Test("a second run of the same command changes nothing and fails nothing", arguments: jobs, seeds)
    func secondRunChangesNothing(_ job: Job, seed: UInt64) throws {
        let library = try GeneratedLibrary(seed: seed, forms: job.forms)
        defer { library.remove() }
        let command = ["apply"] + (try job.arguments(library)) + ["--in-place", "--no-progress", library.path()]
        let first = try SKDPackRunner.run(command)
        #expect(first.status == 0, "\(job) seed \(seed): \(first.stderr)")
        let written = try library.snapshot()
        let second = try SKDPackRunner.run(command)
        #expect(second.status == 0, "\(job) seed \(seed): \(second.stderr)")
        #expect(second.stderr.contains(" 0 changed, "), "\(job) seed \(seed): \(second.stderr)")
        #expect(try library.snapshot() == written, "\(job) seed \(seed): the second run changed bytes")
    }

    /// A title is the unit of change, even when a job names one of its media playlists (a rendition
    /// re-packaged, a pipeline that runs per rendition): each media playlist rewritten in place on its own,
    /// one after another, is refused where a master beside it announces one of its FairPlay keys (the
    /// announcement would go stale), or where a rendition beside it keeps another URI for one of its keys (the
    /// title would have one key, two URIs), goes through otherwise, and no run leaves its title with an error
    /// validate did not find before it (a session key that no playlist uses any more, a key with two URIs).
    @Test(
        "apply --in-place of each media playlist alone: refused where its master or a rendition beside it holds its key, and no error added",
        arguments: [false, true])
    func renditionsAloneKeepTitlesWhole(_ sessionKeys: Bool) throws {
        let job = Self.jobs[1]
        var (byMaster, bySiblings, passes) = (0, 0, 0)
        for seed in UInt64(1)...8 {
            let library = try GeneratedLibrary(seed: seed, forms: job.forms)
            defer { library.remove() }
            var before = try Self.errors(under: library.path(), template: [])
            for path in try Self.files(under: library.path()) where !path.hasSuffix("master.m3u8") {
                let original = try String(contentsOfFile: path, encoding: .utf8)
                let master = (path as NSString).deletingLastPathComponent + "/master.m3u8"
                let announced = (try? String(contentsOfFile: master, encoding: .utf8)).map(Self.fairPlaySessionKeyURIs) ?? []
                let announcesItsKey = announced.contains { original.contains("URI=\"\($0)\"") }
                let run = try SKDPackRunner.run(
                    ["apply"] + (try job.arguments(library)) + (sessionKeys ? ["--session-keys"] : [])
                        + ["--in-place", "--no-progress", path])
                let refusedByMaster = run.stderr.contains("[PKG-rendition-alone]")
                let refusedBySiblings = run.stderr.contains("a rendition of the same title that is not part of this run")
                let refused = refusedByMaster || refusedBySiblings
                #expect(!refusedByMaster || announcesItsKey, "seed \(seed) \(path): \(run.stderr)")
                #expect(!announcesItsKey || refused, "seed \(seed) \(path): \(run.stderr)")
                #expect(run.status == (refused ? 1 : 0), "seed \(seed) \(path): \(run.stderr)")
                if refusedBySiblings {
                    // Warranted: the rendition written anyway (out of place), its title breaks the key map.
                    let forced = FileManager.default.temporaryDirectory.appendingPathComponent("forced-\(UUID().uuidString)").path
                    defer { try? FileManager.default.removeItem(atPath: forced) }
                    let folder = (path as NSString).deletingLastPathComponent
                    try FileManager.default.copyItem(atPath: folder, toPath: forced + "/title")
                    let name = (path as NSString).lastPathComponent
                    let written = try SKDPackRunner.run(["apply"] + (try job.arguments(library)) + ["--output", forced + "/out", path])
                    #expect(written.status == 0, "seed \(seed) \(path): \(written.stderr)")
                    try FileManager.default.removeItem(atPath: forced + "/title/" + name)
                    try FileManager.default.copyItem(atPath: forced + "/out/" + name, toPath: forced + "/title/" + name)
                    let broken = try SKDPackRunner.run(["validate", forced + "/title"])
                    #expect(
                        broken.stdoutText.contains("[FPS-key-two-uris]") || broken.stdoutText.contains("[FPS-uri-two-keys]"),
                        "seed \(seed) \(path): refused, but the title written anyway keeps one URI per key")
                }
                if refused {
                    if refusedByMaster { byMaster += 1 } else { bySiblings += 1 }
                    #expect(try String(contentsOfFile: path, encoding: .utf8) == original, "seed \(seed) \(path): written")
                    #expect(!run.stderr.contains("skd://"), "the message names no URI: \(run.stderr)")
                } else {
                    passes += 1
                }
                let after = try Self.errors(under: library.path(), template: [])
                for (title, errors) in after {
                    let new = errors.subtracting(before[title] ?? [])
                    #expect(new.isEmpty, "seed \(seed), session keys \(sessionKeys), after \(path): \(title) got \(new.sorted())")
                }
                before = after
            }
            // The library applied whole, each rendition applied alone again renders what its title has: nothing
            // refused, nothing changed.
            let whole = try SKDPackRunner.run(
                ["apply"] + (try job.arguments(library)) + (sessionKeys ? ["--session-keys"] : []) + [
                    "--in-place", "--no-progress", library.path(),
                ])
            #expect(whole.status == 0, "seed \(seed): \(whole.stderr)")
            for path in try Self.files(under: library.path()) where !path.hasSuffix("master.m3u8") {
                let again = try SKDPackRunner.run(
                    ["apply"] + (try job.arguments(library)) + (sessionKeys ? ["--session-keys"] : [])
                        + ["--in-place", "--no-progress", path])
                #expect(again.status == 0 && again.stderr.contains(" 0 changed, "), "seed \(seed) \(path): \(again.stderr)")
            }
        }
        #expect(byMaster + bySiblings > 0 && passes > 0, "refused by a master \(byMaster), by a rendition \(bySiblings), passed \(passes)")
    }

    /// The URIs of a master's FairPlay session keys, read from its text.
    static func fairPlaySessionKeyURIs(_ master: String) -> [String] {
        master.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("#EXT-X-SESSION-KEY:"), line.contains("com.apple.streamingkeydelivery"),
                let start = line.range(of: "URI=\"")?.upperBound, let end = line[start...].firstIndex(of: "\"")
            else { return nil }
            return String(line[start..<end])
        }
    }

    /// The playlists under `root`, by path, in order.
    static func files(under root: String) throws -> [String] {
        try GeneratedLibrary.files(under: root).keys.filter { $0.hasSuffix(".m3u8") }.sorted().map { root + "/" + $0 }
    }

    /// The mistakes people make on an ordinary job, each caught before anything is written.
    struct Mistake: CustomStringConvertible, Sendable {
        var name: String
        var arguments: @Sendable (GeneratedLibrary) throws -> [String]
        var description: String { name }
    }

    static let mistakes: [Mistake] = [
        Mistake(name: "a misspelt path beside a good one") { library in
            ["--template", "content-id", "--var", "content_id=x", library.path(), library.path("no-such-title")]
        },
        Mistake(name: "$name in the template") { library in
            [
                "--template", "skd://lic.example.com/fps?cid=$content_id", "--catalog", try library.writeCatalog(server: newServer),
                library.path(),
            ]
        },
        Mistake(name: "$name in a template that names no variable") { library in
            ["--template", "skd://$content_id", library.path()]
        },
        Mistake(name: "${name} in the template") { library in
            [
                "--template", "skd://lic.example.com/fps?cid=${content_id}", "--catalog", try library.writeCatalog(server: newServer),
                library.path(),
            ]
        },
        Mistake(name: "the server with its scheme after skd://") { library in
            [
                "--template", "skd://{entitlement_server_url}?cid={content_id}", "--var", "entitlement_server_url=\(newServer)",
                "--path-pattern", "(?<content_id>title-[0-9]+-[0-9]+)/", library.path(),
            ]
        },
        Mistake(name: "a --var value that breaks its pattern") { library in
            [
                "--template", "entitlement", "--var", "entitlement_url=new-lic.example.com", "--catalog",
                try library.writeCatalog(server: newServer), library.path(),
            ]
        },
        Mistake(name: "catalogue cells with spaces around them") { library in
            let path = library.root.path + "-spaces.csv"
            let rows = ["title_dir,content_id"] + library.titles.map { "\($0.folder), \($0.contentID) " }
            try Data(rows.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
            return ["--template", "content-id", "--catalog", path, library.path()]
        },
        Mistake(name: "a catalogue in Windows-1252") { library in
            let path = library.root.path + "-1252.csv"
            var bytes = Array("title_dir,content_id\n".utf8)
            for title in library.titles { bytes += Array("\(title.folder),caf".utf8) + [0xE9] + Array("-\(title.contentID)\n".utf8) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return ["--template", "entitlement", "--var", "entitlement_url=\(newServer)", "--catalog", path, library.path()]
        },
        Mistake(name: "a match that gives every title one content id") { library in
            [
                "--template", "entitlement", "--var", "entitlement_url=\(newServer)", "--match", "^skd://(?<content_id>[^/?&]+)",
                library.path(),
            ]
        },
        Mistake(name: "a catalogue no placeholder uses") { library in
            ["--template", "content-id", "--var", "content_id=x", "--catalog", try library.writeCatalog(server: newServer), library.path()]
        },
        Mistake(name: "--output inside the input") { library in
            ["--template", "content-id", "--var", "content_id=x", "--output", library.path("out"), library.path()]
        },
    ]

    @Test("a mistake in the job stops it before anything is written: exit 2, every byte as it was", arguments: mistakes, seeds)
    func mistakeWritesNothing(_ mistake: Mistake, seed: UInt64) throws {
        // Two titles at least, of the entitlement form: the shared-id mistake needs them.
        let library = try GeneratedLibrary(seed: seed, titles: 2 + Int(seed % 3), forms: [.entitlement])
        defer {
            library.remove()
            for suffix in ["-spaces.csv", "-1252.csv"] { try? FileManager.default.removeItem(atPath: library.root.path + suffix) }
        }
        let before = try library.snapshot()
        let arguments = try mistake.arguments(library)
        let destination = arguments.contains("--output") ? [] : ["--in-place"]
        let run = try SKDPackRunner.run(["apply", "--no-progress"] + destination + arguments)
        #expect(run.status == 2, "\(mistake) seed \(seed): \(run.stderr)")
        #expect(run.stderr.hasPrefix("skdpack: "), "\(mistake): \(run.stderr)")
        #expect(try library.snapshot() == before, "\(mistake) seed \(seed): bytes were written")
    }

    @Test("secrets of old and new URIs appear in no output, diff or report", arguments: seeds)
    func secretsStaySecret(_ seed: UInt64) throws {
        let library = try GeneratedLibrary(seed: seed, titles: 3, forms: [.expressPlay, .entitlement])
        defer { library.remove() }
        let reports = ["json", "xml", "sarif", "junit.xml"].map { library.root.path + "-report." + $0 }
        defer { for report in reports { try? FileManager.default.removeItem(atPath: report) } }
        let catalog = try library.writeCatalog(server: Self.newServer)
        let migrate = [
            "apply", "--template", "expressplay-token", "--var", "token=\(Self.token)", "--allow-shared-content-id", "--no-progress",
        ]
        var shown: [String] = []
        for run in [
            try SKDPackRunner.run(migrate + ["--diff", library.path()]),
            try SKDPackRunner.run(["apply", "--template", "entitlement", "--catalog", catalog, "--diff", library.path()]),
            try SKDPackRunner.run(["validate", "--template", "entitlement", "--var", "entitlement_url=\(Self.newServer)", library.path()]),
            try SKDPackRunner.run(["validate", "--format", "json", library.path()]),
            try SKDPackRunner.run(migrate + reports.flatMap { ["--report", $0] } + ["--in-place", library.path()]),
        ] {
            shown += [run.stdoutText, run.stderr]
        }
        shown += try reports.map { try String(contentsOfFile: $0, encoding: .utf8) }
        for secret in library.tokens + [Self.token] {
            for (index, text) in shown.enumerated() {
                #expect(!text.contains(secret), "seed \(seed): a token in output \(index)")
            }
        }
        #expect(shown.contains { $0.contains("REDACTED") })
    }

    @Test("two migrations at once leave every title whole: all its keys from one run or the other", arguments: [UInt64(11), 12, 13])
    func titlesWholeUnderConcurrentRuns(_ seed: UInt64) throws {
        let library = try LibraryFixture(titles: 40, segments: 4)
        defer { library.remove() }
        let runs = ["a", "b"].map { value in
            [
                "apply", "--template", "content-id", "--var", "content_id=run-\(value)", "--allow-shared-content-id", "--jobs", "2",
                "--in-place", "--no-progress", library.path(),
            ]
        }
        // Started together, and again with the second a moment later: different interleavings.
        let delay = Double(seed % 3) * 0.01
        let group = DispatchGroup()
        // Each run writes only its own slot, read after both are done.
        nonisolated(unsafe) var statuses: [Int32] = [-1, -1]
        for (index, arguments) in runs.enumerated() {
            DispatchQueue.global().async(group: group) {
                if index == 1 { Thread.sleep(forTimeInterval: delay) }
                statuses[index] = (try? SKDPackRunner.run(arguments).status) ?? -1
            }
        }
        group.wait()
        #expect(statuses == [0, 0])
        for number in 0..<library.titles {
            let title = library.path(String(format: "title-%04d", number))
            let names = try FileManager.default.contentsOfDirectory(atPath: title).filter { $0.hasSuffix(".m3u8") }
            var values: Set<String> = []
            for name in names {
                let text = try String(contentsOfFile: title + "/" + name, encoding: .utf8)
                for match in text.matches(of: /URI="skd:\/\/([^"]*)"/) { values.insert(String(match.output.1)) }
            }
            #expect(values.count == 1, "seed \(seed): \(title) has keys of both runs: \(values)")
            #expect(!FileManager.default.fileExists(atPath: title + "/.skdpack.lock"), "the lock file is removed")
        }
    }

    @Test("a title whose keys rotate never gets one URI for two keys: refused whole, or a URI per period", arguments: seeds)
    func rotationNeverFolded(_ seed: UInt64) throws {
        let library = try GeneratedLibrary(seed: seed, titles: 3, forms: [.contentID, .entitlement], rotates: true)
        defer { library.remove() }
        let before = try library.snapshot()
        let pathPattern = ["--path-pattern", "(?<content_id>title-[0-9]+-[0-9]+)/"]
        let folded = try SKDPackRunner.run(
            ["apply", "--template", "content-id"] + pathPattern + ["--in-place", "--no-progress", library.path()])
        let rotating = try library.snapshot().filter { $0.value != before[$0.key] }.keys
        #expect(folded.status == 1 || rotating.isEmpty, "\(folded.stderr)")
        for (path, data) in try library.snapshot() where path.hasSuffix(".m3u8") && data != before[path] {
            // Whatever was written has a URI of its own for each key.
            let uris = String(decoding: data, as: UTF8.self).matches(of: /#EXT-X-KEY:[^\n]*URI="(skd:[^"]*)"/).map { String($0.output.1) }
            #expect(Set(uris).count == uris.count, "seed \(seed): \(path) got one URI for two keys: \(uris)")
        }
        #expect(folded.stderr.contains("[TPL-rotation-folded]") || !folded.stderr.contains("error"), "\(folded.stderr)")
        let perPeriod = try SKDPackRunner.run(
            ["apply", "--template", "skd://{content_id}/{key_index}"] + pathPattern + ["--in-place", "--no-progress", library.path()])
        #expect(perPeriod.status == 0, "\(perPeriod.stderr)")
        for (path, data) in try library.snapshot() where path.hasSuffix(".m3u8") && !path.hasSuffix("master.m3u8") {
            let uris = String(decoding: data, as: UTF8.self).matches(of: /#EXT-X-KEY:[^\n]*URI="(skd:[^"]*)"/).map { String($0.output.1) }
            #expect(Set(uris).count == uris.count, "seed \(seed): \(path): \(uris)")
        }
    }

    /// (A secret of an old URI shows as REDACTED in the diff: such a diff is for reading, and not a patch.)
    @Test("--diff is a patch: applied to a copy (LF and CRLF playlists), it gives what --in-place writes", arguments: seeds)
    func diffIsAPatch(_ seed: UInt64) throws {
        let library = try GeneratedLibrary(seed: seed, titles: 4, forms: [.contentID, .entitlement])
        defer { library.remove() }
        let copy = library.root.path + "-patched"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: library.path(), toPath: copy)
        let job = ["apply", "--template", "content-id", "--path-pattern", "(?<content_id>title-[0-9]+-[0-9]+)/", "--no-progress"]
        let diff = try SKDPackRunner.run(job + ["--diff", library.path()])
        #expect(diff.status == 0, "\(diff.stderr)")
        let diffFile = copy + ".diff"
        defer { try? FileManager.default.removeItem(atPath: diffFile) }
        try diff.stdout.write(to: URL(fileURLWithPath: diffFile))
        let patch = try ShellRunner.run("patch -p1 --batch -i '\(diffFile)'", in: URL(fileURLWithPath: copy))
        #expect(patch.status == 0, "seed \(seed): patch refused the diff (its .rej files say where): \(patch.stderr)")
        #expect(try SKDPackRunner.run(job + ["--in-place", library.path()]).status == 0)
        let patched = try GeneratedLibrary.files(under: copy).filter { !$0.key.hasSuffix(".orig") }
        #expect(patched == (try library.snapshot()), "seed \(seed): the patched copy differs from the in-place result")
    }

    @Test("shards written to their own folders merge into the report one run writes", arguments: seeds)
    func shardsMerge(_ seed: UInt64) throws {
        let library = try GeneratedLibrary(seed: seed, titles: 5)
        defer { library.remove() }
        let scratch = library.root.path + "-shards"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let count = 2 + Int(seed % 3)
        let job = ["apply", "--template", "content-id", "--path-pattern", "(?<content_id>title-[0-9]+-[0-9]+)/", "--no-progress"]
        var shardReports: [String] = []
        for index in 0..<count {
            let report = "\(scratch)/pod-\(index)/report.json"
            let run = try SKDPackRunner.run(
                job + [
                    "--output", "\(scratch)/pod-\(index)/out", "--shard", "\(index)/\(count)", "--jobs", "\(1 + index % 2)", "--report",
                    report, library.path(),
                ])
            #expect(run.status == 0, "\(run.stderr)")
            shardReports.append(report)
        }
        let whole = try SKDPackRunner.run(
            job + ["--output", "\(scratch)/all/out", "--report", "\(scratch)/all/report.json", library.path()])
        #expect(whole.status == 0, "\(whole.stderr)")
        let merged = try SKDPackRunner.run(["report", "merge"] + shardReports.shuffled())
        #expect(merged.status == 0, "\(merged.stderr)")
        let one =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(scratch)/all/report.json"))) as? [String: Any]
        let joined = try JSONSerialization.jsonObject(with: merged.stdout) as? [String: Any]
        for key in ["playlists", "summary", "schemaVersion", "tool"] {
            #expect(
                (one?[key]).map { NSDictionary(dictionary: ["v": $0]) } == (joined?[key]).map { NSDictionary(dictionary: ["v": $0]) },
                "seed \(seed), \(count) shards: \(key) differs")
        }
    }

    /// Errors `validate` finds per playlist (relative to `root`): rule ids of error severity.
    static func errors(under root: String, template: [String]) throws -> [String: Set<String>] {
        // Titles said to share their keys (apply's --allow-shared-content-id) are said so to validate too.
        let template = template.flatMap { $0 == "--allow-shared-content-id" ? ["--disable", "FPS-uri-two-titles"] : [$0] }
        let run = try SKDPackRunner.run(["validate", "--format", "json", "--no-progress"] + template + [root])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
        var errors: [String: Set<String>] = [:]
        for playlist in report["playlists"] as? [[String: Any]] ?? [] {
            let path = String((playlist["path"] as? String ?? "").dropFirst(root.count + 1))
            let findings = playlist["diagnostics"] as? [[String: Any]] ?? []
            errors[path] = Set(findings.filter { $0["severity"] as? String == "error" }.compactMap { $0["rule"] as? String })
        }
        return errors
    }

    /// The real corpus (where it is) and a generated library per seed, each with what removes it.
    static func realAndGenerated() throws -> [(root: String, cleanup: () -> Void)] {
        var inputs: [(root: String, cleanup: () -> Void)] = []
        if let corpus = Corpus.directory { inputs.append((corpus.path, {})) }
        for seed in seeds {
            let library = try GeneratedLibrary(seed: seed)
            inputs.append((library.path(), { library.remove() }))
        }
        return inputs
    }

    /// (One value for every title of a library: said to be shared, or the plan refuses it.)
    static let templates: [[String]] = [
        ["--template", "content-id", "--var", "content_id=title-42", "--allow-shared-content-id"],
        [
            "--template", "entitlement", "--var", "entitlement_url=\(newServer)", "--var", "content_id=title 42",
            "--allow-shared-content-id",
        ],
        ["--template", "expressplay-token", "--var", "token=\(token)", "--allow-shared-content-id"],
    ]

    /// Every key apply writes passes the KEY, FPS and TPL rules too.
    @Test(
        "apply writes no playlist in which validate, with the same template, finds an error it did not find before",
        arguments: templates.indices)
    func applyAddsNoError(_ template: Int) throws {
        let arguments = Self.templates[template]
        let inputs = try Self.realAndGenerated()
        defer { for input in inputs { input.cleanup() } }
        var changed = 0
        for input in inputs {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-out-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try SKDPackRunner.run(["apply", "--no-progress"] + arguments + ["--output", output, input.root])
            #expect(run.status <= 1, "\(run.stderr)")
            let before = try Self.errors(under: input.root, template: arguments)
            let after = try Self.errors(under: output, template: arguments)
            for (path, errors) in after {
                let new = errors.subtracting(before[path] ?? [])
                #expect(new.isEmpty, "\(path) (\(arguments[1])): apply added \(new.sorted())")
                let written = try Data(contentsOf: URL(fileURLWithPath: output + "/" + path))
                guard written != (try Data(contentsOf: URL(fileURLWithPath: input.root + "/" + path))) else { continue }
                changed += 1
                let keyErrors = errors.filter { $0.hasPrefix("KEY-") || $0.hasPrefix("FPS-") || $0.hasPrefix("TPL-") }
                #expect(keyErrors.isEmpty, "\(path) (\(arguments[1])): written with \(keyErrors.sorted())")
            }
        }
        #expect(changed > 0)
    }

    /// With `--validate`, the promise whole: a playlist apply writes has no error `validate` (same template,
    /// its values) finds; one that would have is left as it was. (Package rules, which need the whole title,
    /// are `validate`'s.)
    @Test("apply --validate writes no playlist with an error validate finds, whatever its cause", arguments: templates.indices)
    func applyValidateWritesNoError(_ template: Int) throws {
        let arguments = Self.templates[template]
        let inputs = try Self.realAndGenerated()
        defer { for input in inputs { input.cleanup() } }
        for input in inputs {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-out-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try SKDPackRunner.run(["apply", "--no-progress", "--validate"] + arguments + ["--output", output, input.root])
            #expect(run.status <= 1, "\(run.stderr)")
            for (path, errors) in try Self.errors(under: output, template: arguments) {
                let written = try Data(contentsOf: URL(fileURLWithPath: output + "/" + path))
                guard written != (try Data(contentsOf: URL(fileURLWithPath: input.root + "/" + path))) else { continue }
                let found = errors.filter { !$0.hasPrefix("PKG-") }
                #expect(found.isEmpty, "\(path) (\(arguments[1])): written with \(found.sorted())")
            }
        }
    }
}
