import Foundation
import SKDTestSupport
import Testing

/// One FairPlay URI per key, as a newcomer met it in an hour of ordinary packaging: each case run through
/// the built `skdpack` as a user runs it. `apply` refuses whatever would give two keys one URI (or one key
/// two), whatever the values' source, before anything of the title is written; `validate` finds the same
/// on any playlists.
@Suite("One skd URI per key: the key map, kept by apply and checked by validate")
struct KeyMapTests {
    static let widevine = "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"

    /// A key period: the KEYID of its Widevine key (none: no Widevine key), its FairPlay URI (none: no
    /// FairPlay key), or a clear period (`METHOD=NONE`).
    enum Period {
        case keys(keyID: String?, fairPlay: String?)
        case clear
    }

    static func kid(_ number: Int) -> String { String(format: "%032x", 0xA0 + number) }

    /// A media playlist of `periods`, two segments each.
    static func media(_ periods: [Period], name: String = "video") -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MAP:URI=\"\(name)-init.mp4\"",
        ]
        var segment = 0
        for period in periods {
            switch period {
            case .clear:
                lines.append("#EXT-X-KEY:METHOD=NONE")
            case .keys(let keyID, let fairPlay):
                if let keyID {
                    lines.append(
                        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAANHBzc2g=",KEYID=0x\#(keyID),KEYFORMAT="\#(widevine)",KEYFORMATVERSIONS="1""#
                    )
                }
                if let fairPlay {
                    lines.append(
                        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(fairPlay)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                    )
                }
            }
            for _ in 0..<2 {
                lines += ["#EXTINF:6.000,", "\(name)-\(segment).m4s"]
                segment += 1
            }
        }
        return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    /// A master listing an audio rendition and a video variant.
    static let master =
        [
            "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS",
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",URI="audio.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360,AUDIO="aac""#, "video.m3u8",
        ].joined(separator: "\n") + "\n"

    /// The FairPlay URIs of a playlist's key lines, in order.
    static func fairPlayURIs(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.contains("com.apple.streamingkeydelivery") && $0.hasPrefix("#EXT-X-KEY") }.map { line in
            let start = line.range(of: "URI=\"")!.upperBound
            return String(line[start...].prefix { $0 != "\"" })
        }
    }

    static let entitlement = ["--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps"]
    static let rotation = ["--template", "entitlement-rotation", "--var", "entitlement_url=https://lic.example.com/fps"]

    /// Runs apply in place on `folder` of `scratch`; expects it refused (exit 1), nothing written, and
    /// `says` on standard error.
    func refusedWhole(_ arguments: [String], _ scratch: Scratch, folder: String, says: String, status: Int32 = 1) throws {
        let before = try scratch.snapshot(folder)
        let result = try SKDPackRunner.run(["apply"] + arguments + ["--in-place", "--no-progress", scratch.path(folder)])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(try scratch.snapshot(folder) == before, "nothing of the title is written")
    }

    @Test("a --match anchored with $ that misses a URI going on past its group says why")
    func anchoredMatch() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write("title/video.m3u8", Self.media([.keys(keyID: nil, fairPlay: "skd://old.example.com/fps?cid=title-1&kp=1")]))
        try refusedWhole(
            Self.entitlement + ["--match", "cid=(?<content_id>[a-z]+-[0-9]+)$"], scratch, folder: "title",
            says: "does not match --match cid=(?<content_id>[a-z]+-[0-9]+)$ (it ends in $, so it matches only where the URI ends",
            // A pattern that fits none of the run's key URIs (here its one) is the run's mistake: exit 2.
            status: 2)
    }

    @Test("keys told apart by their old FairPlay URIs only: the message says they differ, without a blank-looking pair")
    func foldedByOldURIs() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/video.m3u8",
            Self.media([
                .keys(keyID: nil, fairPlay: "skd://old.example.com/fps?cid=title-1&kp=1"),
                .keys(keyID: nil, fairPlay: "skd://old.example.com/fps?cid=title-1&kp=2"),
            ]))
        try refusedWhole(
            Self.entitlement + ["--match", "[?&]cid=(?<content_id>[^&]+)"], scratch, folder: "title",
            says:
                "this key period's key is not the key of line 6, as their old FairPlay URIs differ, yet the template gives both one URI"
        )
    }

    @Test("1. FairPlay keys inserted beside rotating Widevine keys, with a template whose values do not change per period: refused")
    func insertedBesideRotation() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/video.m3u8", Self.media([.keys(keyID: Self.kid(0), fairPlay: nil), .keys(keyID: Self.kid(1), fairPlay: nil)]))
        try refusedWhole(
            Self.entitlement + ["--var", "content_id=title-1"], scratch, folder: "title",
            says:
                "this key period's key (KEYID 0x\(Self.kid(1))) is not the key of line 6 (KEYID 0x\(Self.kid(0))), yet the template gives both one URI"
        )
        // With a URI per key, it goes through: one URI for each KEYID.
        let result = try SKDPackRunner.run(
            ["apply"] + Self.rotation + ["--var", "content_id=title-1", "--in-place", "--no-progress", scratch.path("title")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.fairPlayURIs(try scratch.text("title/video.m3u8")) == [
                "skd://lic.example.com/fps?cid=title-1&period=0", "skd://lic.example.com/fps?cid=title-1&period=1",
            ])
    }

    @Test("1b. a packager's placeholder, the same skd:// URI in every period, beside rotating KEYIDs: refused")
    func placeholders() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/video.m3u8",
            Self.media([.keys(keyID: Self.kid(0), fairPlay: "skd://placeholder"), .keys(keyID: Self.kid(1), fairPlay: "skd://placeholder")])
        )
        try refusedWhole(
            Self.entitlement + ["--var", "content_id=title-1"], scratch, folder: "title", says: "[TPL-rotation-folded]")
        // validate finds the same in the playlist as it stands.
        let validate = try SKDPackRunner.run(["validate", scratch.path("title/video.m3u8")])
        #expect(validate.status == 1, "\(validate.stderr)")
        #expect(
            validate.stdoutText.contains("video.m3u8:13:1: error: this key period's key (KEYID 0x\(Self.kid(1))) is not the key of line 7"),
            "\(validate.stdoutText)")
        #expect(validate.stdoutText.contains("[FPS-uri-two-keys]"), "\(validate.stdoutText)")
    }

    @Test("2. {key_index} counts the title's keys: a clear lead in the video shifts nothing, each key has one URI in every rendition")
    func keyIndexAcrossRenditions() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        let keys: [Period] = [.keys(keyID: Self.kid(0), fairPlay: "skd://old/0"), .keys(keyID: Self.kid(1), fairPlay: "skd://old/1")]
        try scratch.write("title/master.m3u8", Self.master)
        try scratch.write("title/video.m3u8", Self.media([.clear] + keys))
        try scratch.write("title/audio.m3u8", Self.media(keys, name: "audio"))
        let result = try SKDPackRunner.run(
            ["apply"] + Self.rotation + ["--var", "content_id=title-1", "--in-place", "--no-progress", scratch.path("title")])
        #expect(result.status == 0, "\(result.stderr)")
        let audio = Self.fairPlayURIs(try scratch.text("title/audio.m3u8"))
        #expect(audio == ["skd://lic.example.com/fps?cid=title-1&period=0", "skd://lic.example.com/fps?cid=title-1&period=1"])
        #expect(Self.fairPlayURIs(try scratch.text("title/video.m3u8")) == audio)
        let validate = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(validate.status == 0, "\(validate.stderr)")
    }

    @Test("3. keys per track (audio and video keys differ) with a template that gives the title one URI: refused whole")
    func keysPerTrack() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write("title/master.m3u8", Self.master)
        try scratch.write("title/video.m3u8", Self.media([.keys(keyID: Self.kid(0), fairPlay: "skd://title-1")]))
        try scratch.write("title/audio.m3u8", Self.media([.keys(keyID: Self.kid(9), fairPlay: "skd://title-1")], name: "audio"))
        try refusedWhole(
            Self.entitlement + ["--var", "content_id=title-1"], scratch, folder: "title",
            says: "audio.m3u8:7 (KEYID 0x\(Self.kid(9))), yet the template gives both one URI")
        // {key_index} numbers each playlist's keys alike: the advice is {kid}, and --check counts what the run would do.
        let rotation = try SKDPackRunner.run(
            ["apply"] + Self.rotation + ["--var", "content_id=title-1", "--check", "--no-progress", scratch.path("title")])
        #expect(rotation.status == 1)
        #expect(
            rotation.stderr.contains("the playlists have keys of their own (keys per track): put {kid} in the template"),
            "\(rotation.stderr)")
        #expect(rotation.stderr.contains("audio.m3u8:1:1: error: not updated: "), "the audio would not change either: \(rotation.stderr)")
        #expect(rotation.stderr.contains(" 0 would change, "), "\(rotation.stderr)")
        #expect(rotation.stderr.contains("the shipped template entitlement-kid"), "\(rotation.stderr)")
        // {kid} gives each key its own: the shipped entitlement form with it, as the advice says.
        let perTrack = try SKDPackRunner.run(
            [
                "apply", "--template", "entitlement-kid", "--var", "entitlement_url=https://lic.example.com/fps", "--var",
                "content_id=title-1",
            ]
                + ["--check", "--no-progress", scratch.path("title")])
        #expect(perTrack.status == 1 && !perTrack.stderr.contains("error:"), "would change, no error: \(perTrack.stderr)")
        let result = try SKDPackRunner.run(["apply", "--template", "key-id", "--in-place", "--no-progress", scratch.path("title")])
        #expect(result.status == 0, "\(result.stderr)")
        // validate of the title as it was: the one URI for two keys, at the second rendition's key line.
        try scratch.write("title/video.m3u8", Self.media([.keys(keyID: Self.kid(0), fairPlay: "skd://title-1")]))
        try scratch.write("title/audio.m3u8", Self.media([.keys(keyID: Self.kid(9), fairPlay: "skd://title-1")], name: "audio"))
        let validate = try SKDPackRunner.run(["validate", scratch.path("title")])
        #expect(validate.status == 1, "\(validate.stderr)")
        #expect(
            validate.stdoutText.contains(
                "video.m3u8:7:1: error: this key period's key (KEYID 0x\(Self.kid(0))) is not the key of \(scratch.path("title/audio.m3u8")):7"
            ),
            "\(validate.stdoutText)")
        #expect(validate.stdoutText.contains("[FPS-uri-two-keys]"), "\(validate.stdoutText)")
    }

    @Test(
        "4. one key with two FairPlay URIs (the same KEYID in two periods): validate says so, and apply of a --match that copies them refuses"
    )
    func oneKeyTwoURIs() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        try scratch.write(
            "title/video.m3u8",
            Self.media([
                .keys(keyID: Self.kid(0), fairPlay: "skd://title-1/a"), .keys(keyID: Self.kid(1), fairPlay: "skd://title-1/b"),
                .keys(keyID: Self.kid(0), fairPlay: "skd://title-1/c"),
            ]))
        let validate = try SKDPackRunner.run(["validate", scratch.path("title/video.m3u8")])
        #expect(validate.status == 1, "\(validate.stderr)")
        #expect(
            validate.stdoutText.contains("video.m3u8:19:1: error: this key period's key (KEYID 0x\(Self.kid(0))) is the key of line 7"),
            "\(validate.stdoutText)")
        #expect(validate.stdoutText.contains("[FPS-key-two-uris]"), "\(validate.stdoutText)")
        try refusedWhole(
            ["--template", "skd://new/{content_id}", "--match", "^skd://(?<content_id>.+)$"], scratch, folder: "title",
            says: "[FPS-key-two-uris]")
        // {key_index} numbers a key met again with its first number: one URI for it.
        let result = try SKDPackRunner.run(
            ["apply"] + Self.rotation + ["--var", "content_id=title-1", "--in-place", "--no-progress", scratch.path("title")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fairPlayURIs(try scratch.text("title/video.m3u8")).map { $0.suffix(8) } == ["period=0", "period=1", "period=0"])
    }

    @Test("5. --var content_id given to a library folder: every title would get one URI; refused before anything is written")
    func oneValueForALibrary() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let before = try scratch.snapshot("library")
        let result = try SKDPackRunner.run(
            ["apply", "--template", "content-id", "--var", "content_id=title-1", "--in-place", "--no-progress", scratch.path("library")])
        #expect(result.status == 2, "\(result.stderr)")
        // The clear title gets no key, so it is not among them.
        #expect(
            result.stderr.contains(
                "3 titles would get the same key URIs (\(scratch.path("library/crlf-title")), \(scratch.path("library/legacy-title")), "
                    + "\(scratch.path("library/multi-drm-title"))): the template's values ({content_id} from --var) are the same for them"),
            "\(result.stderr)")
        #expect(try scratch.snapshot("library") == before)
        // Two catalogue rows with one content id: the same.
        try scratch.write(
            "shared.csv",
            "title_dir,content_id\ncrlf-title,title-1\nlegacy-title,title-1\nmulti-drm-title,title-2\nclear-title,title-3\n")
        let catalogue = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--catalog", scratch.path("shared.csv"), "--check", "--no-progress",
                scratch.path("library"),
            ])
        #expect(catalogue.status == 2, "\(catalogue.stderr)")
        #expect(catalogue.stderr.contains("2 titles would get the same key URIs"), "\(catalogue.stderr)")
        // One title at a time is what --var is for.
        let one = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--var", "content_id=title-1", "--check", "--no-progress",
                scratch.path("library/legacy-title"),
            ])
        #expect(one.status == 1, "would change: \(one.stderr)")
    }

    @Test("6. a catalogue's title_dir is the title's path under its input: two titles named ep01 never share a row")
    func catalogueTitlePaths() throws {
        let scratch = try Scratch(folder: "shows")
        defer { scratch.remove() }
        for show in ["show-a", "show-b"] {
            try FileManager.default.createDirectory(atPath: scratch.path("shows/\(show)/ep01"), withIntermediateDirectories: true)
            for name in ["master.m3u8", "video-360p.m3u8"] {
                try FileManager.default.copyItem(
                    atPath: scratch.path("library/legacy-title/\(name)"), toPath: scratch.path("shows/\(show)/ep01/\(name)"))
            }
        }
        try scratch.write("base.csv", "title_dir,content_id\nep01,title-1\n")
        let before = try scratch.snapshot("shows")
        let refused = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--catalog", scratch.path("base.csv"), "--in-place", "--no-progress",
                scratch.path("shows"),
            ])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "names its title by the folder name ep01, which 2 titles of this run have (show-a/ep01, show-b/ep01): give each title_dir as its path under the input (show-a/ep01)"
            ), "\(refused.stderr)")
        #expect(try scratch.snapshot("shows") == before)
        // Paths under the input, from any working directory; a path row likewise.
        try scratch.write("paths.csv", "title_dir,content_id\nshow-a/ep01,a-1\n./show-b/ep01/,b-1\n")
        let applied = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--catalog", scratch.path("paths.csv"), "--in-place", "--no-progress",
                scratch.path("shows"),
            ],
            directory: URL(fileURLWithPath: "/"))
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(Self.fairPlayURIs(try scratch.text("shows/show-a/ep01/video-360p.m3u8")) == ["skd://a-1"])
        #expect(Self.fairPlayURIs(try scratch.text("shows/show-b/ep01/video-360p.m3u8")) == ["skd://b-1"])
        // One title given on its own, deeper than the catalogue was written from: its row still found.
        let deeper = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--catalog", scratch.path("paths.csv"), "--check", "--no-progress",
                scratch.path("shows/show-b/ep01"),
            ])
        #expect(deeper.status == 0, "already as its row says: \(deeper.stderr)")
        try scratch.write(
            "rows.csv",
            "path,content_id\n"
                + ["show-a", "show-b"].flatMap { show in
                    ["master.m3u8", "video-360p.m3u8"].map { "\(show)/ep01/\($0),\(show)-2\n" }
                }.joined())
        let byPath = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--catalog", scratch.path("rows.csv"), "--in-place", "--no-progress",
                scratch.path("shows"),
            ],
            directory: URL(fileURLWithPath: "/"))
        #expect(byPath.status == 0, "\(byPath.stderr)")
        #expect(Self.fairPlayURIs(try scratch.text("shows/show-b/ep01/video-360p.m3u8")) == ["skd://show-b-2"])
    }

    @Test("7. what a library is: .m3u8 in any case, .m3u that starts #EXTM3U, each file read once, links not followed named")
    func whatALibraryIs() throws {
        let scratch = try Scratch(folder: "lib")
        defer { scratch.remove() }
        let fileManager = FileManager.default
        // A title whose names a Windows packager wrote: Master.M3U8 listing sd.M3U8.
        try fileManager.createDirectory(atPath: scratch.path("lib/Upper"), withIntermediateDirectories: true)
        try scratch.write(
            "lib/Upper/Master.M3U8",
            try scratch.text("library/legacy-title/master.m3u8").replacingOccurrences(of: "video-360p.m3u8", with: "sd.M3U8"))
        try fileManager.copyItem(atPath: scratch.path("library/legacy-title/video-360p.m3u8"), toPath: scratch.path("lib/Upper/sd.M3U8"))
        // An .m3u playlist, and an .m3u that is a plain list of files.
        try fileManager.createDirectory(atPath: scratch.path("lib/m3u"), withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: scratch.path("library/crlf-title/index.m3u8"), toPath: scratch.path("lib/m3u/index.m3u"))
        try scratch.write("lib/m3u/songs.m3u", "a.mp3\nb.mp3\n")
        // A title behind a symbolic link.
        try fileManager.createSymbolicLink(atPath: scratch.path("lib/linked"), withDestinationPath: scratch.path("library/multi-drm-title"))
        // The library, itself again, and one of its playlists: each file read once.
        let result = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--path-pattern", "/(?<content_id>[^/]+)/[^/]+$", "--diff", "--no-progress",
                scratch.path("lib"), scratch.path("lib") + "/.", scratch.path("lib/Upper/sd.M3U8"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("apply: 3 playlists read, 3 would change"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped 1 symbolic link (\(scratch.path("lib/linked"))): not followed without --follow-symlinks"))
        let diff = result.stdoutText
        for (file, uri) in [("Upper/Master.M3U8", "skd://Upper"), ("Upper/sd.M3U8", "skd://Upper"), ("m3u/index.m3u", "skd://m3u")] {
            #expect(diff.components(separatedBy: "+++ b/\(file)").count == 2, "once: \(file)\n\(diff)")
            #expect(diff.contains(uri))
        }
        #expect(!diff.contains("songs.m3u"))
        let validate = try SKDPackRunner.run(["validate", scratch.path("lib")])
        #expect(validate.stdoutText.contains("3 playlists checked"), "\(validate.stdoutText)")
    }

    @Test("8. a master whose renditions are root-relative: held back whole without --root, migrated whole with it")
    func rootRelative() throws {
        let scratch = try Scratch(folder: "www/vod/t1")
        defer { scratch.remove() }
        try scratch.write(
            "www/vod/t1/master.m3u8",
            try scratch.text("library/legacy-title/master.m3u8").replacingOccurrences(
                of: "\nvideo-360p.m3u8", with: "\n/vod/t1/video-360p.m3u8"))
        try FileManager.default.copyItem(
            atPath: scratch.path("library/legacy-title/video-360p.m3u8"), toPath: scratch.path("www/vod/t1/video-360p.m3u8"))
        let before = try scratch.snapshot("www")
        let arguments = ["apply", "--template", "content-id", "--var", "content_id=new-1", "--in-place", "--no-progress"]
        let held = try SKDPackRunner.run(arguments + [scratch.path("www/vod/t1")])
        #expect(held.status == 1, "\(held.stderr)")
        #expect(
            held.stderr.contains(
                "master.m3u8:1:1: error: this master names a playlist from the web server's root (/vod/t1/video-360p.m3u8), which "
                    + "skdpack cannot read here: give --root DIR"), "\(held.stderr)")
        // The rendition found in the same folder is the title's: held back with it, not rewritten alone.
        #expect(held.stderr.contains("video-360p.m3u8:1:1: error: not updated: "), "\(held.stderr)")
        #expect(try scratch.snapshot("www") == before, "nothing of the title is written")
        let whole = try SKDPackRunner.run(arguments + ["--root", scratch.path("www"), scratch.path("www/vod/t1/master.m3u8")])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(Self.fairPlayURIs(try scratch.text("www/vod/t1/video-360p.m3u8")) == ["skd://new-1"])
        #expect(try scratch.text("www/vod/t1/master.m3u8").contains(#"EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://new-1""#))
        let validate = try SKDPackRunner.run(["validate", "--root", scratch.path("www"), scratch.path("www/vod/t1/master.m3u8")])
        #expect(validate.stdoutText.contains("2 playlists checked: 0 errors, 0 warnings, 0 notes"), "\(validate.stdoutText)")
    }

    @Test("9. inspect of a master shows its title's key map: each key, its evidence, its URIs, the periods that use it")
    func inspectShowsTheMap() throws {
        let scratch = try Scratch(folder: "title")
        defer { scratch.remove() }
        let token = "Tok3n-abcdefghijklmnopqrstuvwxyz"
        let expressPlay = "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=\(token)"
        try scratch.write("title/master.m3u8", Self.master)
        try scratch.write(
            "title/video.m3u8",
            Self.media([.clear, .keys(keyID: Self.kid(0), fairPlay: expressPlay), .keys(keyID: Self.kid(1), fairPlay: "skd://t/1")]))
        try scratch.write(
            "title/audio.m3u8",
            Self.media(
                [.keys(keyID: Self.kid(0), fairPlay: expressPlay), .keys(keyID: Self.kid(1), fairPlay: "skd://t/1b")], name: "audio"))
        let run = try SKDPackRunner.run(["inspect", scratch.path("title/master.m3u8")])
        #expect(!run.stdoutText.contains(token), "the token is a secret here too")
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let map = try #require(json["keyMap"] as? [String: Any])
        let keys = try #require(map["keys"] as? [[String: Any]])
        #expect(keys.count == 2)
        #expect(keys.first?["keyID"] as? String == Self.kid(0))
        #expect(keys.first?["evidence"] as? String == "keyid")
        #expect((keys.first?["uris"] as? [String])?.count == 1)
        #expect((keys.first?["uris"] as? [String])?.first?.contains("REDACTED") == true)
        #expect(keys.first?["periods"] as? [String] == [scratch.path("title/audio.m3u8") + ":7", scratch.path("title/video.m3u8") + ":12"])
        #expect(keys.last?["uris"] as? [String] == ["skd://t/1b", "skd://t/1"])
        let findings = try #require(map["findings"] as? [String])
        #expect(findings.count == 1)
        #expect(findings.first?.hasSuffix("[FPS-key-two-uris]") == true, "\(findings)")
    }

    @Test("10. validate holds the titles of a run to each other: one URI in two titles is an error at the later one, naming the first")
    func titlesOfARun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Written with one value for the library, said to be shared: validate, which cannot know that, says so.
        let apply = try SKDPackRunner.run(
            [
                "apply", "--template", "content-id", "--var", "content_id=title-1", "--allow-shared-content-id", "--in-place",
                "--no-progress", scratch.path("library/crlf-title"), scratch.path("library/legacy-title"),
            ])
        #expect(apply.status == 0, "\(apply.stderr)")
        let validate = try SKDPackRunner.run(["validate", "--no-progress", scratch.path("library")])
        #expect(validate.status == 1)
        #expect(
            validate.stdoutText.contains(
                "legacy-title/video-360p.m3u8:6:1: error: this FairPlay URI is also the one of another title, at "
                    + "\(scratch.path("library/crlf-title/index.m3u8")):6 and no KEYID says they share its key"), "\(validate.stdoutText)")
        #expect(validate.stdoutText.components(separatedBy: "[FPS-uri-two-titles]").count == 2, "said once")
        let disabled = try SKDPackRunner.run(["validate", "--disable", "FPS-uri-two-titles", "--no-progress", scratch.path("library")])
        #expect(!disabled.stdoutText.contains("FPS-uri-two-titles"))
    }

    @Test("11. a sharded run: report merge finds a URI given to titles of different shards, an error in the merged report and exit 1")
    func shardsHeldToEachOther() throws {
        let scratch = try Scratch(folder: "reports")
        defer { scratch.remove() }
        // Sixteen shards: a title in each at most, so no shard sees two titles with one URI.
        let count = 16
        func shards(_ extra: [String]) throws -> [String] {
            try (0..<count).map { index in
                let report = scratch.path("reports/\(extra.isEmpty ? "a" : "b")-\(index).json")
                _ = try SKDPackRunner.run(
                    [
                        "apply", "--template", "content-id", "--var", "content_id=title-1", "--shard", "\(index)/\(count)", "--check",
                        "--no-progress", "--report", report,
                    ] + extra + [scratch.path("library")])
                return report
            }
        }
        let merge = try SKDPackRunner.run(["report", "merge"] + (try shards([])))
        #expect(merge.status == 1, "\(merge.stderr)")
        #expect(
            merge.stderr.contains("legacy-title/video-360p.m3u8:6:1: error: this FairPlay URI is also the one of another title, at ")
                && merge.stderr.contains("crlf-title/index.m3u8:6 (shard "), "\(merge.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: merge.stdout) as? [String: Any])
        #expect((report["summary"] as? [String: Any])?["errors"] as? Int ?? 0 >= 1)
        #expect(merge.stdoutText.contains("FPS-uri-two-titles"))
        // Said to share their keys: merged as they are.
        let shared = try SKDPackRunner.run(["report", "merge"] + (try shards(["--allow-shared-content-id"])))
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(!shared.stdoutText.contains("FPS-uri-two-titles"))
    }

    @Test("12. a FairPlay URI with a token has no digest in a report (a reader could test guesses of the token); merge says it")
    func tokenURIsHaveNoDigest() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let token = "Zq81mXo2Vb7tLw4K"
        for title in ["t1", "t2"] {
            try FileManager.default.createDirectory(atPath: scratch.path("lib/\(title)"), withIntermediateDirectories: true)
            try scratch.write(
                "lib/\(title)/video.m3u8",
                Self.media([.keys(keyID: nil, fairPlay: "skd://lic.example.com/fps?cid=\(title)&token=\(token)")], name: "video"))
        }
        var reports: [String] = []
        for index in 0..<2 {
            let report = scratch.path("r-\(index).json")
            let validate = try SKDPackRunner.run(
                ["validate", "--no-progress", "--shard", "\(index)/2", "--report", report, scratch.path("lib")])
            #expect(validate.status == 0, "\(validate.stdoutText)")
            let text = try String(contentsOfFile: report, encoding: .utf8)
            #expect(!text.contains(token))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let uris = (json["playlists"] as? [[String: Any]] ?? []).flatMap { $0["keyURIs"] as? [[String: Any]] ?? [] }
            #expect(uris.count == 1, "\(text)")
            #expect(uris.allSatisfy { $0["digest"] == nil && $0["holdsSecret"] as? Bool == true }, "\(uris)")
            reports.append(report)
        }
        let merge = try SKDPackRunner.run(["report", "merge"] + reports)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(
            merge.stdoutText.contains(
                "2 FairPlay key URIs of the merged reports (counted once a playlist) hold a token, so the reports carry no digest "
                    + "of them: whether titles of different shards share one is not checked"), "\(merge.stdoutText)")
        #expect(merge.stderr.contains("video.m3u8:6:1: note: 2 FairPlay key URIs"), "\(merge.stderr)")
        #expect(merge.stderr.contains("[FPS-uri-not-compared]") && !merge.stdoutText.contains("FPS-uri-two-titles"), "\(merge.stderr)")
        #expect(!merge.stdoutText.contains(token))
        // apply's report: the URIs a secret template makes have no digest either.
        let applied = scratch.path("applied.json")
        let apply = try SKDPackRunner.run(
            [
                "apply", "--template", "expressplay-token", "--var", "token=\(token)Q", "--check", "--no-progress", "--report", applied,
                scratch.path("lib/t1"),
            ])
        #expect(apply.status == 1, "--check: it would change; \(apply.stderr)")
        let text = try String(contentsOfFile: applied, encoding: .utf8)
        #expect(!text.contains(token) && text.contains("\"holdsSecret\" : true") && !text.contains("\"digest\""), "\(text)")
    }

    @Test(
        "validate --media: the init segments tell keys per track apart where the playlists name no key id",
        .enabled(if: SharedMaterial.media != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func keyTruthTellsKeys() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A real title's audio and video init segments, encrypted with two keys; one FairPlay URI for both.
        let media = try #require(SharedMaterial.media)
        for (track, name) in [("audio", "enc-a-init.mp4"), ("video", "enc-v-init.mp4")] {
            let source = media.appendingPathComponent("shaka-project__shaka-player__test_test_assets_clear-encrypted_\(name)")
            try FileManager.default.copyItem(atPath: source.path, toPath: scratch.path("\(track)-init.mp4"))
            try scratch.write("\(track).m3u8", Self.media([.keys(keyID: nil, fairPlay: "skd://title-7")], name: track))
        }
        try scratch.write("master.m3u8", Self.master)
        let told = try SKDPackRunner.run(["validate", "--media", scratch.path("master.m3u8")])
        #expect(told.status == 1)
        #expect(told.stdoutText.contains("from key truth) is not the key of"), "\(told.stdoutText)")
        #expect(told.stdoutText.contains("[FPS-uri-two-keys]"), "\(told.stdoutText)")
        // Without the media nothing here tells the keys apart, and nothing is said of the map.
        let untold = try SKDPackRunner.run(["validate", scratch.path("master.m3u8")])
        #expect(!untold.stdoutText.contains("FPS-uri-two-keys"), "\(untold.stdoutText)")
    }
}
