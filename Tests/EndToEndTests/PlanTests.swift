import Foundation
import SKDTestSupport
import Testing

/// The slips a packaging engineer makes on a real library, each run through the built `skdpack`: caught
/// before anything is written (exit 2, every playlist as it was), a title changed whole or not at all,
/// reports that count what was done, and files that say what they are.
@Suite("Mistakes caught before anything is written")
struct PlanTests {
    static let migration = ["apply", "--template", "entitlement-rotation", "--var", "entitlement_url=https://new-lic.example.com/fps"]
    static let match = ["--match", "(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)"]

    /// Runs `arguments` on the example library and expects exit 2, `message` on standard error (once),
    /// and no file changed.
    func refused(_ arguments: [String], says message: String, scratch: Scratch) throws {
        let before = try scratch.snapshot("library")
        let result = try SKDPackRunner.run(arguments + ["--in-place", scratch.path("library")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: message).count == 2, "once: \(message)\n\(result.stderr)")
        #expect(try scratch.snapshot("library") == before, "nothing written")
    }

    @Test("1. a --var the template does not have (a typo) is refused, naming the template's variables")
    func unknownVariable() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try refused(
            [
                "apply", "--template", "entitlement", "--catalog", PackageLocation.root.appendingPathComponent("examples/catalog.csv").path,
                "--var", "entitlemnt_url=https://new-lic.example.com/fps",
            ],
            says:
                "skdpack: --var entitlemnt_url: the template entitlement has no variable entitlemnt_url; did you mean entitlement_url? (its variables: entitlement_url, content_id)",
            scratch: scratch)
    }

    @Test("1b. a --match group the template does not have (a typo) is refused, saying which variable was meant")
    func unknownGroup() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try refused(
            Self.migration + ["--match", "(?:.*[?&]cid=|^skd://)(?<contnet_id>[^/?&]+)"],
            says:
                "the group contnet_id of --match names no variable of the template entitlement-rotation; did you mean content_id? "
                + "(its variables: entitlement_url, content_id, key_index)",
            scratch: scratch)
    }

    @Test("2. a template file whose uri uses an undeclared variable is refused by templates check and by apply")
    func undeclaredPlaceholder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "typo.yaml", "name: typo\nuri: \"skd://{contnet_id}\"\nvariables:\n  content_id: {pattern: \"[a-z0-9-]+\"}\n")
        let message =
            "typo.yaml:2:13: error: uri: {contnet_id} is not declared under variables (did you mean {content_id}?) (declared: content_id;"
        let check = try SKDPackRunner.run(["templates", "check", scratch.path("typo.yaml")])
        #expect(check.status != 0)
        #expect(check.stderr.contains(message), "\(check.stderr)")
        try refused(["apply", "--template", scratch.path("typo.yaml"), "--var", "content_id=x"], says: message, scratch: scratch)
    }

    /// The entitlement form with allow_hosts: lic.example.com, its values without patterns.
    static let hostsTemplate =
        "name: hosts\nuri: \"skd://{entitlement_url|strip_scheme}?cid={content_id|url}\"\n"
        + "variables:\n  entitlement_url: {}\n  content_id: {}\nlicense:\n  allow_hosts: [lic.example.com]\n"

    @Test("3. key URIs on a host the template's allow_hosts does not allow: refused before any write")
    func hostNotAllowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("hosts.yaml", Self.hostsTemplate)
        try refused(
            ["apply", "--template", scratch.path("hosts.yaml"), "--var", "entitlement_url=https://other.example.net/fps"] + Self.match,
            says: "would point at other.example.net, which the template's allow_hosts (lic.example.com) does not allow", scratch: scratch)
    }

    /// A value rendered empty leaves a URI that names no key (`?cid=`): apply refuses it as validate and render
    /// do (it wrote it, exit 0), and the host of such a URI is still held to allow_hosts (an empty title
    /// had switched the host check off: the code review's case).
    @Test("3b. an empty value: the URI names no key, refused by apply, render and validate alike; its host still held to allow_hosts")
    func emptyValue() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("hosts.yaml", Self.hostsTemplate)
        let before = try scratch.snapshot("library")
        let title = scratch.path("library/legacy-title")
        let empty = try SKDPackRunner.run(
            [
                "apply", "--template", scratch.path("hosts.yaml"), "--var", "entitlement_url=https://lic.example.com/fps", "--var",
                "content_id=", "--in-place",
                title,
            ])
        #expect(empty.status == 1, "\(empty.stderr)")
        #expect(
            empty.stderr.contains("this FairPlay key URI's cid= is empty") && empty.stderr.contains("[FPS-uri-empty]"), "\(empty.stderr)")
        #expect(try scratch.snapshot("library") == before)
        let rendered = try SKDPackRunner.run(
            [
                "render", "--template", scratch.path("hosts.yaml"), "--var", "entitlement_url=https://lic.example.com/fps", "--var",
                "content_id=",
            ])
        #expect(rendered.status == 1 && rendered.stderr.contains("cid= is empty"), "\(rendered.stdoutText) \(rendered.stderr)")
        let elsewhere = try SKDPackRunner.run(
            [
                "apply", "--template", scratch.path("hosts.yaml"), "--var", "entitlement_url=https://evil.example.net/fps", "--var",
                "content_id=",
                "--in-place", title,
            ])
        #expect(elsewhere.status != 0, "\(elsewhere.stderr)")
        #expect(try scratch.snapshot("library") == before)
        let validated = try SKDPackRunner.run(["validate", "--template", scratch.path("hosts.yaml"), "--var", "content_id=x", title])
        #expect(!validated.stdoutText.contains("[FPS-uri-empty]"), "the library's own URIs name their keys")
    }

    @Test("4. a catalogue without the column the template needs, or without a title's row: one line each")
    func catalogue() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("no-column.csv", "title_dir,entitlement_url\nlegacy-title,https://lic.example.com/fps\n")
        try refused(
            ["apply", "--template", "entitlement", "--catalog", scratch.path("no-column.csv")],
            says: "has no content_id column, and nothing else gives {content_id} (its columns: entitlement_url)",
            scratch: scratch)
        try scratch.write("misspelt.csv", "title_dir,contentid,entitlement_url\nlegacy-title,t-1,https://lic.example.com/fps\n")
        try refused(
            ["apply", "--template", "entitlement", "--catalog", scratch.path("misspelt.csv")],
            says: "has no content_id column, and nothing else gives {content_id}; is its column contentid meant? name it content_id",
            scratch: scratch)
        // A template of the user's own may hold the typo: both are offered.
        try scratch.write("own.csv", "title_dir,content_id\nlegacy-title,t-1\n")
        try refused(
            ["apply", "--template", "skd://lic.example.com/{content_idd}", "--catalog", scratch.path("own.csv")],
            says: "is its column content_id meant? name it content_idd, or write {content_id} in the template if that is the typo",
            scratch: scratch)
        try scratch.write(
            "no-row.csv",
            "title_dir,content_id,entitlement_url\nclear-title,t-1,https://lic.example.com/fps\n"
                + "multi-drm-title,t-2,https://lic.example.com/fps\ncrlf-title,t-3,https://lic.example.com/fps\n")
        try refused(
            ["apply", "--template", "entitlement", "--catalog", scratch.path("no-row.csv")],
            says: "for title_dir legacy-title", scratch: scratch)
    }

    @Test("a title without its catalogue row is named as a row would name it: its folder relative to the input")
    func missingRowNamedAsARow() throws {
        let scratch = try Scratch(folder: nil)
        defer { scratch.remove() }
        let media =
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://old\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n#EXTINF:6,\na.ts\n"
        for episode in ["ep1", "ep2"] {
            try FileManager.default.createDirectory(atPath: scratch.path("lib/series-b/\(episode)"), withIntermediateDirectories: true)
            try scratch.write("lib/series-b/\(episode)/v.m3u8", media)
        }
        try scratch.write("titles.csv", "title_dir,content_id\nseries-b/ep2,e2\n")
        let run = try SKDPackRunner.run([
            "apply", "--template", "content-id", "--catalog", scratch.path("titles.csv"), "--check", scratch.path("lib"),
        ])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("for title_dir series-b/ep1 (nor for the path"), "\(run.stderr)")
    }

    @Test("5. renditions in sub-folders get their title's catalogue row: title_dir is the master's folder")
    func renditionsInSubfolders() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("movies/movie-1/v720"), withIntermediateDirectories: true)
        try scratch.write(
            "movies/movie-1/master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\nv720/index.m3u8\n")
        try scratch.write(
            "movies/movie-1/v720/index.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n"
                + "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://old\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"\n"
                + "#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n")
        try scratch.write("titles.csv", "title_dir,content_id,entitlement_url\nmovie-1,movie-0001,https://lic.example.com/fps\n")
        let result = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--catalog", scratch.path("titles.csv"), "--in-place", scratch.path("movies")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.text("movies/movie-1/v720/index.m3u8").contains(#"URI="skd://lic.example.com/fps?cid=movie-0001""#))
    }

    @Test("6. one read-only or missing media playlist: the title is left whole as it was, and the summary names it")
    func titleWholeOrNotAtAll() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let title = "library/multi-drm-title"
        let audio = scratch.path(title + "/audio-en.m3u8")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: audio)
        let before = try scratch.snapshot(title)
        let readOnly = try SKDPackRunner.run(Self.migration + Self.match + ["--in-place", scratch.path(title)])
        #expect(readOnly.status == 2, "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("audio-en.m3u8: cannot rewrite: it is read-only"), "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("not updated: \(audio) of its title could not be; a title is changed whole or not at all"))
        #expect(try scratch.snapshot(title) == before, "not one playlist of the title changed")
        // Writable again, the same run does the whole title.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: audio)
        try FileManager.default.removeItem(atPath: scratch.path(title + "/iframes-720p.m3u8"))
        let withoutOne = try scratch.snapshot(title)
        let missing = try SKDPackRunner.run(Self.migration + Self.match + ["--in-place", scratch.path(title)])
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("[PKG-missing-playlist]"))
        #expect(try scratch.snapshot(title) == withoutOne, "a title with a missing playlist is not half-migrated")
    }

    @Test("7. a playlist that fails (not UTF-8) carries no changes: the report's counts equal the summary's")
    func reportCountsWhatWasDone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var legacy = try Data(contentsOf: URL(fileURLWithPath: scratch.path("library/legacy-title/video-360p.m3u8")))
        legacy.append(contentsOf: [0x23, 0xFF, 0xFE, 0x0A])
        try legacy.write(to: URL(fileURLWithPath: scratch.path("library/legacy-title/video-360p.m3u8")))
        let report = scratch.path("run.json")
        let result = try SKDPackRunner.run(Self.migration + Self.match + ["--in-place", "--report", report, scratch.path("library")])
        #expect(result.status == 1, "\(result.stderr)")
        let summaryLine = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("apply:") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        let rewritten = try #require(summary["keysRewritten"] as? Int)
        #expect(summaryLine.contains("keys rewritten \(rewritten),"), "\(summaryLine) against the report's \(rewritten)")
        let playlists = try #require(json["playlists"] as? [[String: Any]])
        for playlist in playlists where playlist["status"] as? String == "failed" {
            #expect((playlist["changes"] as? [Any])?.isEmpty ?? true, "\(playlist["path"] ?? "")")
        }
    }

    @Test("8. an MP4 given as a playlist: one finding that says what it is")
    func notAPlaylist() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The start of an fMP4 init segment: a 'ftyp' box, then a 'moov' box.
        var bytes: [UInt8] = [0, 0, 0, 24] + Array("ftypcmfc".utf8) + [0, 0, 0, 0] + Array("cmfciso6".utf8)
        bytes += [0, 0, 0, 8] + Array("moov".utf8) + [0x0A, 0x1B, 0x7F, 0x0A, 0x00]
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("init.mp4")))
        for command in [["validate"], ["cat"], ["apply", "--template", "content-id", "--var", "content_id=x", "--check"]] {
            let result = try SKDPackRunner.run(command + [scratch.path("init.mp4")])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            let text = result.stderr + result.stdoutText
            #expect(
                text.contains(
                    "error: this is not a playlist (it looks like an MP4 file: its first box is 'ftyp'); give the .m3u8 file [HLS-not-a-playlist]"
                ))
            #expect(text.components(separatedBy: "error:").count == 2, "one finding: \(text)")
        }
    }

    @Test("9. --match giving every title the same content id stops the run before anything is written; --allow-shared-content-id lets it")
    func sharedContentID() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let before = try scratch.snapshot("library")
        // A greedy pattern: everything after skd:// up to the first dot or slash is the same for every title.
        let greedy = ["--match", "^(?<content_id>skd)"]
        let stopped = try SKDPackRunner.run(Self.migration + greedy + ["--in-place", scratch.path("library")])
        #expect(stopped.status == 2)
        #expect(stopped.stderr.contains("titles would get the same key URIs ("), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("{content_id} from --match: skd"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("a pattern that captures too much?"), "\(stopped.stderr)")
        #expect(try scratch.snapshot("library") == before, "nothing written")
        let allowed = try SKDPackRunner.run(Self.migration + greedy + ["--allow-shared-content-id", "--check", scratch.path("library")])
        #expect(!allowed.stderr.contains("would get the same key URIs") && !allowed.stderr.contains("titles got the content id"))
        let honest = try SKDPackRunner.run(Self.migration + Self.match + ["--check", scratch.path("library")])
        #expect(!honest.stderr.contains("content id"), "each title its own id: \(honest.stderr)")
    }

    @Test("10. an EXT-X-STREAM-INF without its URI line is an error at that line")
    func variantWithoutURI() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000\n#EXT-X-STREAM-INF:BANDWIDTH=2560000\nhi.m3u8\n")
        let result = try SKDPackRunner.run(["validate", scratch.path("master.m3u8")])
        #expect(result.status == 1)
        #expect(
            result.stdoutText.contains("master.m3u8:2:1: error: this #EXT-X-STREAM-INF has no URI line after it"), "\(result.stdoutText)")
        #expect(!result.stdoutText.contains("URI= attribute"))
        // The URI written as an attribute, as EXT-X-MEDIA writes it (the Comcast corpus master): said so.
        try scratch.write(
            "attribute.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000,URI=\"lo.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=2560000\nhi.m3u8\n"
        )
        let attribute = try SKDPackRunner.run(["validate", scratch.path("attribute.m3u8")])
        #expect(
            attribute.stdoutText.contains(
                "attribute.m3u8:2:1: error: this #EXT-X-STREAM-INF has no URI line after it; add the variant's URI on the next line "
                    + "(its URI= attribute is not read"), "\(attribute.stdoutText)")
    }

    @Test("11. broken symbolic links are reported as such, walked or named, with or without --follow-symlinks")
    func brokenLinks() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let link = scratch.path("library/legacy-title/gone.m3u8")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere.m3u8")
        let said = "\(link): cannot read: it is a symbolic link to nowhere.m3u8, which does not exist"
        for extra in [[], ["--follow-symlinks"]] {
            let walked = try SKDPackRunner.run(["validate"] + extra + [scratch.path("library")])
            #expect(walked.status == 2)
            #expect(walked.stderr.contains(said), "\(walked.stderr)")
            let named = try SKDPackRunner.run(["validate"] + extra + [link])
            #expect(named.stderr.contains(said), "\(named.stderr)")
            #expect(!named.stderr.contains("followed only with"))
        }
    }

    @Test(
        "13. a rendition migrated alone, its master announcing its key: refused in place, by --check and --diff; fine once the master has the new key"
    )
    func renditionAlone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let rendition = scratch.path("library/legacy-title/video-360p.m3u8")
        let before = try scratch.snapshot("library")
        let migration = Self.migration + Self.match
        let says =
            "legacy-title/master.m3u8:4:1: error: \(rendition), rewritten alone, would no longer use the key this master announces here"
        for destination in ["--in-place", "--check", "--diff"] {
            let run = try SKDPackRunner.run(migration + [destination, rendition])
            #expect(run.status == 1, "\(destination): \(run.stderr)")
            #expect(run.stderr.contains(says) && run.stderr.contains("[PKG-rendition-alone]"), "\(destination): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(destination) shows nothing it would not write: \(run.stdoutText)")
            #expect(try scratch.snapshot("library") == before, "\(destination) wrote")
        }
        // The title migrated whole, then the rendition put back as it was: its master announces the key it
        // gets, so it goes through alone.
        let title = try SKDPackRunner.run(migration + ["--in-place", scratch.path("library/legacy-title")])
        #expect(title.status == 0, "\(title.stderr)")
        let migrated = try scratch.text("library/legacy-title/video-360p.m3u8")
        try scratch.write("library/legacy-title/video-360p.m3u8", String(decoding: before["legacy-title/video-360p.m3u8"]!, as: UTF8.self))
        let alone = try SKDPackRunner.run(migration + ["--in-place", rendition])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(try scratch.text("library/legacy-title/video-360p.m3u8") == migrated)
    }

    @Test("13b. a rendition in a folder of its own is held to the master above it; a master without session keys holds nothing")
    func renditionInSubfolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let legacy = try scratch.text("library/legacy-title/video-360p.m3u8")
        try FileManager.default.createDirectory(atPath: scratch.path("t/video"), withIntermediateDirectories: true)
        try scratch.write("t/video/v.m3u8", legacy)
        let sessionKey =
            #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://legacy-0042",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        try scratch.write("t/master.m3u8", "#EXTM3U\n#EXT-X-VERSION:5\n\(sessionKey)\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nvideo/v.m3u8\n")
        let refused = try SKDPackRunner.run(Self.migration + Self.match + ["--in-place", scratch.path("t/video/v.m3u8")])
        #expect(refused.status == 1 && refused.stderr.contains("t/master.m3u8:3:1: error: "), "\(refused.stderr)")
        #expect(try scratch.text("t/video/v.m3u8") == legacy)
        // The packager writes the master before any session key (the run asks for them): nothing to hold.
        try scratch.write("t/master.m3u8", "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nvideo/v.m3u8\n")
        let passed = try SKDPackRunner.run(Self.migration + Self.match + ["--session-keys", "--in-place", scratch.path("t/video/v.m3u8")])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(try scratch.text("t/video/v.m3u8") != legacy)
    }

    @Test(
        "13c. a rendition rewritten alone is held to the renditions beside it: one key keeps one URI in the title, its master announcing nothing"
    )
    func renditionAloneAgainstSiblings() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let widevine =
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAANHBzc2g=",KEYID=0x0000000000000000000000000a0a0a0a,"#
            + #"KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
        let fairPlay =
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=movie-a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        for name in ["audio", "video-360p", "video-720p"] {
            try scratch.write(
                "t/\(name).m3u8",
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n\(widevine)\n\(fairPlay)\n#EXTINF:6.0,\n\(name)-0.m4s\n#EXT-X-ENDLIST\n"
            )
        }
        try scratch.write(
            "t/master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",URI=\"audio.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO=\"a\"\nvideo-360p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2400000,AUDIO=\"a\"\nvideo-720p.m3u8\n"
        )
        let before = try scratch.snapshot("t")
        let rendition = scratch.path("t/video-720p.m3u8")
        // Another URI for the key the other renditions name skd://lic.example.com/fps?cid=movie-a: refused, in
        // place and by --check, with --validate too; nothing written.
        for destination in [["--in-place"], ["--in-place", "--validate"], ["--check"]] {
            let run = try SKDPackRunner.run(
                ["apply", "--template", "content-id", "--var", "content_id=movie-a-v2"] + destination + [rendition])
            #expect(run.status == 1, "\(destination): \(run.stderr)")
            #expect(
                run.stderr.contains("video-720p.m3u8:5:1: error: ") && run.stderr.contains("audio.m3u8:5, a rendition of the same title")
                    && run.stderr.contains("[FPS-key-two-uris]"), "\(destination): \(run.stderr)")
            #expect(try scratch.snapshot("t") == before, "\(destination) wrote")
        }
        // The URI the title has already: nothing to change, nothing refused.
        let same = try SKDPackRunner.run(
            [
                "apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--var", "content_id=movie-a",
                "--in-place", rendition,
            ])
        #expect(same.status == 0, "\(same.stderr)")
        // The title whole: every rendition changes together.
        let whole = try SKDPackRunner.run(
            ["apply", "--template", "content-id", "--var", "content_id=movie-a-v2", "--in-place", scratch.path("t")])
        #expect(whole.status == 0, "\(whole.stderr)")
        let validated = try SKDPackRunner.run(["validate", scratch.path("t")])
        #expect(validated.status == 0, "\(validated.stdoutText)")
    }

    @Test("12. the Kubernetes recipe's shard command runs on a fresh volume: it makes its report folder")
    func kubernetesShard() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let recipe = try String(
            contentsOf: PackageLocation.root.appendingPathComponent("examples/k8s/migrate-job.yaml"), encoding: .utf8)
        // The first job's shell command: the folded block after `- >-`, joined as YAML folds it.
        let lines = recipe.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- >-" })
        let indent = lines[start + 1].prefix { $0 == " " }.count
        let block = lines[(start + 1)...].prefix {
            $0.prefix { $0 == " " }.count >= indent && !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        let volume = scratch.path("volume")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: scratch.path("library"), toPath: volume + "/titles")
        let command = block.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            .replacingOccurrences(of: "/library", with: volume)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = SKDPackRunner.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["JOB_COMPLETION_INDEX"] = "0"
        shell.environment = environment
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: volume + "/.skdpack/shard-0.json"))
    }

    @Test("two inputs whose playlists would be one file of the --output mirror (two titles' master.m3u8): refused, naming both")
    func outputCollision() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let titles = ["legacy-title", "multi-drm-title"]
        for inputs in [titles.map { "library/\($0)/master.m3u8" }, titles.map { "library/\($0)" }] {
            let run = try SKDPackRunner.run(Self.migration + Self.match + ["--output", scratch.path("out")] + inputs.map(scratch.path))
            #expect(run.status == 2, "\(run.stderr)")
            #expect(
                run.stderr.contains(
                    "library/legacy-title/master.m3u8 and \(scratch.path("library/multi-drm-title/master.m3u8")) would both be written to "
                        + "\(scratch.path("out"))/master.m3u8"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("out")), "nothing written")
        }
        // Their common folder: each title keeps its folder in the mirror.
        let run = try SKDPackRunner.run(Self.migration + Self.match + ["--output", scratch.path("out"), scratch.path("library")])
        #expect(run.status == 0, "\(run.stderr)")
        for title in titles { #expect(FileManager.default.fileExists(atPath: scratch.path("out/\(title)/master.m3u8"))) }
    }

    @Test(
        "a key skdpack adds (a period with other systems' keys only) has no old URI for --match: the message says so and what gives the value"
    )
    func addedKeyHasNothingToMatch() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let widevine = { (kid: String) in
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\#(kid),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
        }
        try scratch.write(
            "v.m3u8",
            [
                "#EXTM3U", "#EXT-X-VERSION:5", "#EXT-X-TARGETDURATION:6",
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=t1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
                widevine(String(repeating: "1", count: 32)), "#EXTINF:6.0,", "a.ts", widevine(String(repeating: "2", count: 32)),
                "#EXTINF:6.0,",
                "b.ts", "#EXT-X-ENDLIST", "",
            ].joined(separator: "\n"))
        let before = try scratch.text("v.m3u8")
        let run = try SKDPackRunner.run(
            [
                "apply", "--template", "entitlement-kid", "--var", "entitlement_url=https://lic2.example.com/fps", "--match",
                "[?&]cid=(?<content_id>[^&]+)", "--in-place", scratch.path("v.m3u8"),
            ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "v.m3u8:8:1: error: {content_id} has no value: no source gives one, and the template has no default for it (this key period "
                    + "has no FairPlay key for --match to read content_id from: the key is added;"), "\(run.stderr)")
        #expect(try scratch.text("v.m3u8") == before, "left as it was")
    }

    @Test("two inputs whose playlists would be one path of a --diff (a/master.m3u8 twice, a patch that cannot say which): refused")
    func diffCollision() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let inputs = ["legacy-title", "multi-drm-title"].map { scratch.path("library/\($0)") }
        let run = try SKDPackRunner.run(Self.migration + Self.match + ["--diff"] + inputs)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("would both be shown as a/master.m3u8 in the diff"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "no patch")
        // Their common folder: each path of the patch names its title.
        let common = try SKDPackRunner.run(Self.migration + Self.match + ["--diff", scratch.path("library")])
        #expect(common.status == 0, "\(common.stderr)")
        #expect(common.stdoutText.contains("--- a/legacy-title/master.m3u8") && common.stdoutText.contains("--- a/multi-drm-title/"))
    }

    @Test("a --match content id that holds the rest of the old URI (its query) is refused before anything is written, and at a later key")
    func contentIDHoldsAURI() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let greedy = ["--match", "skd://(?<content_id>.*)"]
        // A title migrated once, moved to another server with a pattern that takes the whole old URI.
        let first = try SKDPackRunner.run(Self.migration + Self.match + ["--in-place", scratch.path("library/legacy-title")])
        #expect(first.status == 0, "\(first.stderr)")
        let moved = ["apply", "--template", "entitlement-rotation", "--var", "entitlement_url=https://lic2.example.com/fps"]
        try refused(
            moved + greedy,
            says: "the --match group content_id of skd://(?<content_id>.*) captured new-lic.example.com/fps?cid=legacy-0042&period=0, "
                + "which holds a URI's scheme or query",
            scratch: scratch)
        // The plan reads each title's first key; a later one is refused at its line, the playlist left as it was.
        let playlist = "library/multi-drm-title/video-720p.m3u8"
        let text = try scratch.text(playlist)
        let keyLines = text.split(separator: "\n").filter { $0.contains("com.apple.streamingkeydelivery") }
        let second = try #require(keyLines.dropFirst().first)
        try scratch.write(
            playlist,
            text.replacingOccurrences(
                of: String(second), with: second.replacingOccurrences(of: "skd://", with: "skd://lic.example.com/fps?cid=")))
        let before = try scratch.snapshot("library")
        let run = try SKDPackRunner.run(moved + greedy + ["--in-place", scratch.path("library/multi-drm-title")])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("[TPL-match-uri]"), "\(run.stderr)")
        #expect(try scratch.snapshot("library") == before)
    }

    @Test(
        "a --match content id that is the old URI's host, where the URI names its title in the query, is refused before anything is written"
    )
    func contentIDIsTheHost() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The first example's pattern, for skd://{content_id} URIs, over titles in the entitlement form: every
        // title would get the license server's host as its content id (a newcomer's run, exit 0 before).
        let first = try SKDPackRunner.run(Self.migration + Self.match + ["--in-place", scratch.path("library")])
        #expect(first.status == 0, "\(first.stderr)")
        let moved = ["apply", "--template", "entitlement-rotation", "--var", "entitlement_url=https://lic2.example.com/fps"]
        try refused(
            moved + ["--match", "^skd://(?<content_id>[^/?&]+)"],
            says:
                "the --match group content_id of ^skd://(?<content_id>[^/?&]+) captured new-lic.example.com, the old key URI's host (a server's name)",
            scratch: scratch)
        // A greedy group that takes the rest of the query (the second newcomer trial's cid=(?<content_id>.+): every
        // key got cid=title%26period%3D0, exit 0, a warning without a place).
        try refused(
            moved + ["--match", "cid=(?<content_id>.+)"],
            says: "the --match group content_id of cid=(?<content_id>.+) captured ", scratch: scratch)
        // A group that takes the URI's path after its host (the sixth newcomer trial: every key became
        // ?cid=fps, exit 0, on one title as on a library).
        let title = try scratch.snapshot("library")
        let playlists = try PromiseTests.files(under: scratch.path("library")).filter { !$0.hasSuffix("master.m3u8") }
        let onePath = try #require(
            try playlists.first { try String(contentsOfFile: $0, encoding: .utf8).contains("skd://new-lic.example.com/fps?") })
        let pathPart = try SKDPackRunner.run(moved + ["--match", "skd://[^/]+/(?<content_id>[^?&]+)", "--in-place", onePath])
        #expect(pathPart.status == 2, "\(pathPart.stderr)")
        #expect(pathPart.stderr.contains("captured fps, a part of the old key URI's path"), "\(pathPart.stderr)")
        #expect(try scratch.snapshot("library") == title)
        // The pattern the message suggests reads the titles' own ids.
        let fixed = try SKDPackRunner.run(moved + ["--match", "[?&]cid=(?<content_id>[^&]+)", "--check", scratch.path("library")])
        #expect(fixed.status == 1, "changes to make, none refused: \(fixed.stderr)")
        #expect(!fixed.stderr.contains("error"), "\(fixed.stderr)")
    }

    @Test("a --match that fits none of the run's key URIs: one line says so, beside each key's error, and exit 2")
    func matchFitsNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pattern = "^skd:/(?<content_id>[^/?&]+)"
        let run = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--match", pattern, "--check"]
                + [scratch.path("library")])
        // The run's mistake, not the playlists': exit 2, as the plan's refusals.
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stdoutText.contains("[TPL-match]") || run.stderr.contains("[TPL-match]"))
        #expect(
            run.stderr.components(separatedBy: "error: --match \(pattern) found none of the ").count == 2,
            "once: \(run.stderr)")
        // A title of one FairPlay URI (where a pattern is tried first): the same.
        let one = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--match", pattern, "--check"]
                + [scratch.path("library/legacy-title/video-360p.m3u8")])
        #expect(one.status == 2, "\(one.stderr)")
        #expect(one.stderr.contains("error: --match \(pattern) does not fit the one key URI it was given"), "\(one.stderr)")
        // A pattern that fits: no such line.
        let fits = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps"] + Self.match
                + ["--check", scratch.path("library")])
        #expect(!fits.stderr.contains("found none of") && !fits.stderr.contains("does not fit the one"), "\(fits.stderr)")
    }

    @Test("two titles whose first keys have one KEYID share that key: one URI for both is not refused; without a KEYID it is")
    func titlesSharingAKey() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The same title in two folders: its keys, and what its old URIs give, are the same.
        try FileManager.default.copyItem(atPath: scratch.path("library/multi-drm-title"), toPath: scratch.path("library/multi-drm-copy"))
        let shared = try SKDPackRunner.run(Self.migration + Self.match + ["--check", scratch.path("library")])
        #expect(shared.status != 2 && !shared.stderr.contains("would get the same key URIs"), "\(shared.stderr)")
        #expect(!shared.stderr.contains("titles got the content id"), "nor warned of after the run: \(shared.stderr)")
        // A title without KEYIDs copied: nothing says the two share a key.
        try FileManager.default.copyItem(atPath: scratch.path("library/legacy-title"), toPath: scratch.path("library/legacy-copy"))
        let unknown = try SKDPackRunner.run(Self.migration + Self.match + ["--check", scratch.path("library")])
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("2 titles would get the same key URIs (\(scratch.path("library/legacy-copy")), "), "\(unknown.stderr)")
    }

    @Test("a --path-pattern that matches no playlist path is one mistake, said before anything is written")
    func pathPatternMatchesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try refused(
            ["apply", "--template", "content-id", "--path-pattern", "titles/(?<content_id>[^/]+)/"],
            says: "--path-pattern titles/(?<content_id>[^/]+)/ matches none of the 6 playlist paths of the run (for example ",
            scratch: scratch)
    }
}
