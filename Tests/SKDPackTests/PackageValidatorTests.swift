import HLS
import SKDKeys
import SKDPack
import SKDValidation
import Testing

@Suite("package rules (PKG)")
struct PackageValidatorTests {
    static let fairPlay = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://t/1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
    static let widevine =
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#

    static func validated(_ path: String, _ text: String) throws -> PlaylistValidation {
        try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: path)
    }

    static func media(_ path: String, keys: [String]) throws -> PlaylistValidation {
        try validated(
            path,
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n" + keys.map { $0 + "\n" }.joined()
                + "#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n")
    }

    static func master(sessionKeys: [String]) throws -> PlaylistValidation {
        try validated(
            "master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n" + sessionKeys.map { $0 + "\n" }.joined()
                + "#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv2.m3u8\n")
    }

    static func sessionKey(_ key: String) -> String { key.replacingOccurrences(of: "EXT-X-KEY", with: "EXT-X-SESSION-KEY") }

    @Test("a session key equal to the media keys: no finding")
    func consistent() throws {
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: [Self.sessionKey(Self.fairPlay)]),
            media: [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [Self.fairPlay])])
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("a session key no media playlist uses: PKG-session-key-unused, error, on its line")
    func unused() throws {
        let stale = Self.sessionKey(Self.fairPlay.replacingOccurrences(of: "skd://t/1", with: "skd://old/1"))
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: [stale]),
            media: [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [Self.fairPlay])])
        let unused = try #require(findings.first { $0.id == "PKG-session-key-unused" })
        #expect(unused.severity == .error)
        #expect((unused.location.path, unused.location.line, unused.location.column) == ("master.m3u8", 3, 1))
        #expect(findings.contains { $0.id == "PKG-session-key-missing" })
    }

    @Test("a media key the announced session keys leave out: PKG-session-key-missing, warning, with the line to add")
    func missing() throws {
        let second = Self.fairPlay.replacingOccurrences(of: "skd://t/1", with: "skd://t/2")
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: [Self.sessionKey(Self.fairPlay)]),
            media: [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [second])])
        #expect(findings.map(\.id) == ["PKG-session-key-missing"])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.message.contains(Self.sessionKey(second)) == true)
    }

    @Test("a master announcing the other systems' session keys only, over FairPlay media keys: PKG-session-key-missing")
    func missingWhereOnlyOthersAreAnnounced() throws {
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: [Self.sessionKey(Self.widevine)]),
            media: [
                try Self.media("v1.m3u8", keys: [Self.widevine, Self.fairPlay]),
                try Self.media("v2.m3u8", keys: [Self.widevine, Self.fairPlay]),
            ])
        #expect(findings.map(\.id) == ["PKG-session-key-missing"], "\(findings)")
        #expect(findings.first?.location.line == 3)
        #expect(findings.first?.message.contains("session keys of other systems only") == true, "\(findings)")
        // One finding for the key, naming every playlist that uses it.
        #expect(findings.first?.message.contains("(used by v1.m3u8, v2.m3u8)") == true, "\(findings)")
        #expect(findings.first?.message.contains(Self.sessionKey(Self.fairPlay)) == true)
        // A master that announces no session key at all chooses not to: nothing is said.
        let none = PackageValidator.validate(
            master: try Self.master(sessionKeys: []), media: [try Self.media("v1.m3u8", keys: [Self.fairPlay])])
        #expect(!none.contains { $0.id == "PKG-session-key-missing" })
    }

    @Test("a media key that is itself wrong is not offered as the session key to add (it would not pass)")
    func missingButBroken() throws {
        let broken = Self.fairPlay.replacingOccurrences(of: "skd://t/1", with: "sdk://t/2")
            .replacingOccurrences(of: "METHOD=SAMPLE-AES", with: "METHOD=AES-128")
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: [Self.sessionKey(Self.fairPlay)]),
            media: [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [broken])])
        let message = try #require(findings.first { $0.id == "PKG-session-key-missing" }?.message)
        #expect(!message.contains("EXT-X-SESSION-KEY:METHOD=AES-128"), "\(message)")
        #expect(message.contains("fix it, then announce it"), "\(message)")
    }

    @Test("a session key with a media key's URI and another KEYFORMATVERSIONS: PKG-session-key-attributes, not 'unused'")
    func sessionKeyAttributes() throws {
        let other = Self.sessionKey(Self.fairPlay).replacingOccurrences(of: #"KEYFORMATVERSIONS="1""#, with: #"KEYFORMATVERSIONS="1/2""#)
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: [other]),
            media: [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [Self.fairPlay])])
        #expect(findings.map(\.id).contains("PKG-session-key-attributes"), "\(findings)")
        #expect(findings.map(\.id) == ["PKG-session-key-attributes"], "one mistake, one finding: \(findings)")
        #expect(
            findings.first { $0.id == "PKG-session-key-attributes" }?.message.contains(
                #"KEYFORMATVERSIONS="1/2" where the media key has "1""#) == true)
    }

    @Test("no session keys at all is a choice, not a finding")
    func noSessionKeys() throws {
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: []),
            media: [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [Self.fairPlay])])
        #expect(findings.isEmpty)
    }

    @Test("a playlist without a system the others carry: PKG-protection-mismatch on that playlist")
    func protectionMismatch() throws {
        let findings = PackageValidator.validate(
            master: try Self.master(sessionKeys: []),
            media: [
                try Self.media("v1.m3u8", keys: [Self.fairPlay, Self.widevine]),
                try Self.media("v2.m3u8", keys: [Self.fairPlay, Self.widevine]),
                try Self.media("audio.m3u8", keys: [Self.fairPlay]),
            ])
        #expect(findings.map(\.id) == ["PKG-protection-mismatch"])
        #expect(findings.first?.location.path == "audio.m3u8")
        #expect(findings.first?.message.contains("carries FairPlay while") == true)
        #expect(findings.first?.message.contains("carries FairPlay, Widevine") == true)
    }

    @Test("an I-frame playlist without EXT-X-I-FRAMES-ONLY: PKG-iframe-playlist on it; with the tag, nothing")
    func iFramePlaylist() throws {
        let master = try Self.master(sessionKeys: [])
        let plain = try Self.media("v1.m3u8", keys: [])
        let found = PackageValidator.validate(master: master, media: [plain], iFramePlaylists: ["v1.m3u8"])
        #expect(found.map(\.id) == ["PKG-iframe-playlist"])
        #expect(found.first?.location.path == "v1.m3u8")
        let iFrames = try Self.media("v1.m3u8", keys: ["#EXT-X-I-FRAMES-ONLY"])
        #expect(PackageValidator.validate(master: master, media: [iFrames], iFramePlaylists: ["v1.m3u8"]).isEmpty)
        #expect(PackageValidator.validate(master: master, media: [plain]).isEmpty)
    }

    @Test("EXT-X-START in master and media: the same value a warning, another value an error, on the media playlist's line")
    func sharedTags() throws {
        let master = try Self.validated(
            "master.m3u8", "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-START:TIME-OFFSET=10\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n")
        let same = try Self.media("v1.m3u8", keys: ["#EXT-X-START:TIME-OFFSET=10"])
        let repeated = PackageValidator.validate(master: master, media: [same])
        #expect(repeated.map(\.id) == ["PKG-shared-tag-repeated"])
        #expect(repeated.first?.severity == .warning)
        #expect((repeated.first?.location.path, repeated.first?.location.line) == ("v1.m3u8", 4))
        let other = try Self.media("v1.m3u8", keys: ["#EXT-X-START:TIME-OFFSET=0"])
        let differs = PackageValidator.validate(master: master, media: [other])
        #expect(differs.map(\.id) == ["PKG-shared-tag-differs"])
        #expect(differs.first?.severity == .error)
        #expect(differs.first?.message.contains("TIME-OFFSET=10") == true)
    }

    @Test("a media playlist alone has no package to compare; disabled rules stay silent")
    func aloneAndDisabled() throws {
        let media = [try Self.media("v1.m3u8", keys: [Self.fairPlay]), try Self.media("v2.m3u8", keys: [])]
        #expect(PackageValidator.validate(master: nil, media: media).isEmpty)
        var options = ValidationOptions()
        options.disabledRules = ["PKG-protection-mismatch"]
        #expect(PackageValidator.validate(master: try Self.master(sessionKeys: []), media: media, options: options).isEmpty)
        #expect(!PackageValidator.validate(master: try Self.master(sessionKeys: []), media: media).isEmpty)
    }
}
