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
    func refusedWhole(_ arguments: [String], _ scratch: Scratch, folder: String, says: String) throws {
        let before = try scratch.snapshot(folder)
        let result = try SKDPackRunner.run(["apply"] + arguments + ["--in-place", "--no-progress", scratch.path(folder)])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(try scratch.snapshot(folder) == before, "nothing of the title is written")
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
        // {kid} gives each key its own.
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
}
