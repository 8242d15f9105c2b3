import HLS
import SKDPack
import Testing

/// The false alarms of issue #27, each written from its sentence: the playlist that raised the finding
/// before, silent now, and its close variant that still must raise it.
@Suite("validation round 2: false alarms gone, the true findings kept")
struct ValidationRoundTwoTests {
    static func ids(_ text: String) throws -> [DiagnosticID] {
        try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics.map(\.id)
    }

    /// rfc8216bis 4.4.5.2: EXT-X-SKIP replaces segments, so the playlist's duration is unknown; the distance
    /// of EXT-X-START from its end cannot be judged.
    @Test func startOffsetUnderSkip() throws {
        let delta = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
            #EXT-X-START:TIME-OFFSET=-30
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-SKIP:SKIPPED-SEGMENTS=10
            #EXTINF:4,
            a.ts

            """
        #expect(!(try Self.ids(delta)).contains("HLS-start-offset"))
        let whole = delta.replacingOccurrences(of: "#EXT-X-SKIP:SKIPPED-SEGMENTS=10\n", with: "")
        #expect(try Self.ids(whole).contains("HLS-start-offset"))
    }

    /// rfc8216bis 7: EXT-X-ALLOW-CACHE was removed in version 7: valid below it, an unknown tag (a note) from it.
    @Test func removedTagByVersion() throws {
        let playlist = { (version: Int) in
            "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:4\n#EXT-X-ALLOW-CACHE:NO\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        }
        #expect(!(try Self.ids(playlist(6))).contains("HLS-removed-tag"))
        let found = try PlaylistValidator.validate(MemorySource(Array(playlist(7).utf8)), path: "t.m3u8").diagnostics
        #expect(found.first { $0.id == "HLS-removed-tag" }?.severity == .info)
    }

    /// rfc8216bis 4.4.4.4: KEYFORMATVERSIONS is a slash-separated list; one that includes 1 offers FairPlay's.
    @Test func fairPlayVersionsList() throws {
        let key = { (versions: String) in
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:4\n"
                + #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="\#(versions)""#
                + "\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        }
        #expect(!(try Self.ids(key("1/2"))).contains("FPS-keyformatversions"))
        #expect(!(try Self.ids(key("2/1"))).contains("FPS-keyformatversions"))
        #expect(try Self.ids(key("2/3")).contains("FPS-keyformatversions"))
    }

    /// rfc8216bis 8: each feature needs its own version; a key line with an IV and a KEYFORMAT says which.
    @Test func versionMessageNamesEachFeaturesVersion() throws {
        let text =
            "#EXTM3U\n#EXT-X-VERSION:1\n#EXT-X-TARGETDURATION:4\n"
            + #"#EXT-X-KEY:METHOD=AES-128,URI="k",KEYFORMAT="identity",IV=0x00000000000000000000000000000001"#
            + "\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        let found = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics
        let message = try #require(found.first { $0.id == "HLS-version-too-low" }?.message)
        #expect(message.hasPrefix("the KEYFORMAT attribute needs version 5; the IV attribute needs version 2 (rfc8216bis 8)"), "\(message)")
    }

    /// rfc8216bis 4.4.4.4 defines five methods; the message lists exactly those.
    @Test func unknownMethodListsTheDraftsMethods() throws {
        let text =
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-256,URI=\"k\"\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        let found = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics
        let message = try #require(found.first { $0.id == "KEY-method-unknown" }?.message)
        #expect(message.contains("NONE, AES-128 and SAMPLE-AES (every client), SAMPLE-AES-CTR and AES-256-GCM (some)"))
        #expect(!message.contains("AES-256-CTR"))
    }

    /// A variable defined after its use is not "undefined": the message says where its EXT-X-DEFINE is.
    @Test func variableDefinedAfterItsUse() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            {$host}/a.ts
            #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example.com"
            #EXT-X-ENDLIST

            """
        let found = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics
        let message = try #require(found.first { $0.id == "HLS-undefined-variable" }?.message)
        #expect(message == "{$host} is used before it is defined: its EXT-X-DEFINE is at line 6; move the EXT-X-DEFINE above its first use")
        let never = text.replacingOccurrences(of: "#EXT-X-DEFINE:NAME=\"host\",VALUE=\"https://cdn.example.com\"\n", with: "")
        let other = try PlaylistValidator.validate(MemorySource(Array(never.utf8)), path: "t.m3u8").diagnostics
        #expect(other.first { $0.id == "HLS-undefined-variable" }?.message.contains("no EXT-X-DEFINE defines it") == true)
    }

    /// The PROGRAM-DATE-TIME hint is the playlist's own date, completed, not a fixed example.
    @Test func dateHintFromTheValue() throws {
        let text =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:2019-03-07T18:04:05\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        let found = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics
        let message = try #require(found.first { $0.id == "HLS-program-date-time-precision" }?.message)
        #expect(message.contains("2019-03-07T18:04:05.000Z (if the time is UTC"), "\(message)")
        #expect(!message.contains("2026-11-23"))
        let zoned = text.replacingOccurrences(of: "18:04:05", with: "18:04:05+01:00")
        let other = try PlaylistValidator.validate(MemorySource(Array(zoned.utf8)), path: "t.m3u8").diagnostics
        #expect(other.first { $0.id == "HLS-program-date-time-precision" }?.message.hasSuffix("2019-03-07T18:04:05.000+01:00") == true)
    }

    /// rfc8216bis 4.4.6.1.1: corresponding members of two groups may differ in URI, CHANNELS, BIT-DEPTH,
    /// STABLE-RENDITION-ID, INSTREAM-ID and SAMPLE-RATE; not in LANGUAGE.
    @Test func renditionGroupsCompareByTheDraft() throws {
        let master = { (second: String) in
            "#EXTM3U\n#EXT-X-VERSION:7\n"
                + #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="en",LANGUAGE="en",SAMPLE-RATE=44100,STABLE-RENDITION-ID="a",URI="lo.m3u8""#
                + "\n" + second + "\n"
                + #"#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="mp4a.40.2",AUDIO="lo""# + "\nv1.m3u8\n"
                + #"#EXT-X-STREAM-INF:BANDWIDTH=2,CODECS="mp4a.40.2",AUDIO="hi""# + "\nv2.m3u8\n"
        }
        let fine = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="en",LANGUAGE="en",SAMPLE-RATE=48000,STABLE-RENDITION-ID="b",URI="hi.m3u8""#
        #expect(!(try Self.ids(master(fine))).contains("HLS-media-group"))
        let language = fine.replacingOccurrences(of: #"LANGUAGE="en""#, with: #"LANGUAGE="fr""#)
        #expect(try Self.ids(master(language)).contains("HLS-media-group"))
    }

    /// rfc8216bis 4.4.5.1: START-DATE and END-DATE are ISO 8601 date/times; "invalid" is not one.
    @Test func dateRangeDatesAreDates() throws {
        let playlist = { (date: String) in
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
                + #"#EXT-X-DATERANGE:ID="a",START-DATE="\#(date)""# + "\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        }
        let found = try PlaylistValidator.validate(MemorySource(Array(playlist("invalid").utf8)), path: "t.m3u8").diagnostics
        #expect(found.first { $0.id == "HLS-daterange" }?.message.hasPrefix(#"START-DATE="invalid" is not an ISO 8601 date/time"#) == true)
        for good in ["2026-01-01T00:00:00.000Z", "2026-01-01T01:00:00+01:00", "2026-01-01T00:00:00"] {
            #expect(!(try Self.ids(playlist(good))).contains("HLS-daterange"), "\(good)")
        }
    }
}
