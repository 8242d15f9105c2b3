import Foundation
import SKDKeys
import SKDPack
import Testing

@Suite("apply: masters and packages")
struct MasterApplyTests {
    static let widevineSession =
        #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed""#

    static func master(_ sessionKeys: [String]) -> String {
        (["#EXTM3U", "#EXT-X-VERSION:6"] + sessionKeys + [
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8""#,
            "#EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO=\"a\"", "video/v.m3u8",
            #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="video/iframes.m3u8""#,
        ]).joined(separator: "\n") + "\n"
    }

    static let media = String.lines("#EXTM3U", "#EXT-X-VERSION:6", Keys.fairPlayKey("skd://old"), "#EXTINF:6,", "s.ts")

    func files(master: String) -> [String: String] {
        ["t/master.m3u8": master, "t/audio/en.m3u8": Self.media, "t/video/v.m3u8": Self.media, "t/video/iframes.m3u8": Self.media]
    }

    @Test("rule 6: a session key that one new key replaces is rewritten in place; other systems' stay")
    func rewriteInPlace() throws {
        let old = #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        var fixture = try ApplyFixture(files(master: Self.master([Self.widevineSession, old])))
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "new"], planned: false)
        #expect(
            fixture.result("t/master.m3u8")
                == Self.master([Self.widevineSession, old.replacingOccurrences(of: "skd://old", with: "skd://new")]))
        for media in ["t/audio/en.m3u8", "t/video/v.m3u8", "t/video/iframes.m3u8"] {
            #expect(fixture.result(media) == Self.media.replacingOccurrences(of: "skd://old", with: "skd://new"))
        }
        #expect(
            fixture.outcomes.map { $0.path.split(separator: "/").suffix(2).joined(separator: "/") }
                == ["audio/en.m3u8", "video/v.m3u8", "video/iframes.m3u8", "t/master.m3u8"], "media in the master's order, then the master")
    }

    @Test("rule 6: missing session keys are added only when asked; stale ones go")
    func addAndRemove() throws {
        let stale = #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://stale-1",KEYFORMAT="com.apple.streamingkeydelivery""#
        let stale2 = stale.replacingOccurrences(of: "stale-1", with: "stale-2")
        var fixture = try ApplyFixture(files(master: Self.master([stale, stale2])))
        defer { fixture.remove() }
        try fixture.apply(template: "skd://k/one")
        // One key in use: one stale key becomes it, in place (its attributes kept), the other goes.
        #expect(
            fixture.result("t/master.m3u8")
                == Self.master([
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k/one",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                ]))
        #expect(fixture.outcome("t/master.m3u8")?.changes.map(\.action) == [.rewritten, .removed])
        // Three keys in use, one per track (their old URIs differ, and playlist_stem: en, v, iframes): without
        // --session-keys, none added.
        var perTrack = files(master: Self.master([]))
        for (path, stem) in [("t/audio/en.m3u8", "en"), ("t/video/v.m3u8", "v"), ("t/video/iframes.m3u8", "iframes")] {
            perTrack[path] = Self.media.replacingOccurrences(of: "skd://old", with: "skd://old/\(stem)")
        }
        var plain = try ApplyFixture(perTrack)
        defer { plain.remove() }
        try plain.apply(template: "skd://k/{playlist_stem}")
        #expect(plain.result("t/master.m3u8") == Self.master([]))
        try plain.apply(template: "skd://k/{playlist_stem}", sessionKeys: true)
        #expect(
            plain.result("t/master.m3u8")
                == Self.master([
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k/en",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k/v",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k/iframes",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
                ]))
        // The title owns its renditions: title_dir is the master's folder, whatever sub-folder a rendition is in.
        var owned = try ApplyFixture(files(master: Self.master([])))
        defer { owned.remove() }
        try owned.apply(template: "skd://k/{title_dir}", sessionKeys: true)
        #expect(
            owned.result("t/master.m3u8")
                == Self.master([
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k/t",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                ]))
    }

    @Test("a master that announces a session key, whose media now use keys it does not announce, is warned of without --session-keys")
    func unannouncedKeysWarned() throws {
        let one = #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        var perTrack = files(master: Self.master([one]))
        for (path, stem) in [("t/audio/en.m3u8", "en"), ("t/video/v.m3u8", "v"), ("t/video/iframes.m3u8", "iframes")] {
            perTrack[path] = Self.media.replacingOccurrences(of: "skd://old", with: "skd://old/\(stem)")
        }
        var fixture = try ApplyFixture(perTrack)
        defer { fixture.remove() }
        try fixture.apply(template: "skd://k/{playlist_stem}")
        let warnings = fixture.outcome("t/master.m3u8")?.diagnostics.filter { $0.id.rawValue == "PKG-session-key-missing" } ?? []
        #expect(warnings.count == 1, "\(fixture.outcome("t/master.m3u8")?.diagnostics ?? [])")
        #expect(
            warnings.first?.message.contains("announces 1 FairPlay session key, and its media use 2 FairPlay keys it does not announce")
                == true)
        #expect(warnings.first?.location.line == 3)
        // Asked for: announced, and nothing to warn of.
        try fixture.apply(template: "skd://k/{playlist_stem}", sessionKeys: true)
        #expect(fixture.outcome("t/master.m3u8")?.diagnostics.contains { $0.id.rawValue == "PKG-session-key-missing" } == false)
        // A master that announces none: a choice, not warned of here (validate's PKG rules judge it).
        perTrack["t/master.m3u8"] = Self.master([])
        var plain = try ApplyFixture(perTrack)
        defer { plain.remove() }
        try plain.apply(template: "skd://k/{playlist_stem}")
        #expect(plain.outcome("t/master.m3u8")?.diagnostics.isEmpty == true, "\(plain.outcome("t/master.m3u8")?.diagnostics ?? [])")
    }

    @Test("a title whose media playlist fails is left as it was, master and every other playlist")
    func mediaFailure() throws {
        let old = #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#
        var files = files(master: Self.master([old]))
        files["t/video/v.m3u8"] = .lines("#EXTM3U", Keys.fairPlayKey("skd://old", method: "AES-128"), "#EXTINF:6,", "s.ts")
        var fixture = try ApplyFixture(files)
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "new"])
        #expect(fixture.result("t/master.m3u8") == nil)
        #expect(fixture.ids("t/master.m3u8").contains("PKG-media-failed"))
        #expect(fixture.result("t/audio/en.m3u8") == nil)
        #expect(fixture.ids("t/audio/en.m3u8") == ["PKG-title-failed"])
    }

    @Test("references outside the master's directory are refused; missing ones reported")
    func references() throws {
        var fixture = try ApplyFixture([
            "t/master.m3u8": .lines(
                "#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1", "../../etc/evil.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=2", "missing.m3u8",
                "#EXT-X-STREAM-INF:BANDWIDTH=3", "https://cdn.example.com/remote.m3u8")
        ])
        defer { fixture.remove() }
        try fixture.apply(template: "content-id", vars: ["content_id": "x"])
        #expect(fixture.ids("t/master.m3u8") == ["PKG-reference-outside", "PKG-missing-playlist"])
        #expect(fixture.result("t/master.m3u8") == nil)
        #expect(!FileManager.default.fileExists(atPath: fixture.output.deletingLastPathComponent().appendingPathComponent("etc").path))
    }
}
