import HLS
import SKDKeys
import SKDPack
import SKDValidation
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

    static func message(_ id: DiagnosticID, in text: String) throws -> String? {
        try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics.first { $0.id == id }?.message
    }

    /// rfc8216bis 6.2.1: a date that goes back into the segment before it by a second or more maps a date to
    /// two segments; a sub-second overlap is allowed; a segment without a date carries the one before on.
    @Test func programDatesThatOverlap() throws {
        let playlist = { (second: String) in
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:6.0,\na.ts\n"
                + "#EXTINF:6.0,\nb.ts\n#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:\(second)\n#EXTINF:6.0,\nc.ts\n#EXT-X-ENDLIST\n"
        }
        // b.ts runs from 00:06 to 00:12 (carried on from a.ts's date).
        let message = try #require(try Self.message("HLS-program-date-time-overlap", in: playlist("2026-01-01T00:00:09.000Z")))
        #expect(
            message.hasPrefix("2026-01-01T00:00:09.000Z goes back 3 s into the segment before it (dated by line 4, lasting 6 s)"),
            "\(message)")
        let earlier = try #require(try Self.message("HLS-program-date-time-overlap", in: playlist("2026-01-01T00:00:06.000Z")))
        #expect(earlier.contains("is not after the start of the segment before it"))
        // A zone-less date is read as UTC, as the draft tells clients to.
        #expect(try Self.message("HLS-program-date-time-overlap", in: playlist("2026-01-01T00:00:09.000")) != nil)
        for fine in ["2026-01-01T00:00:11.500Z", "2026-01-01T00:00:12.000Z", "2026-01-01T01:00:00.000Z", "2026-01-01T01:00:12.000+01:00"] {
            #expect(try Self.message("HLS-program-date-time-overlap", in: playlist(fine)) == nil, "\(fine)")
        }
    }

    /// rfc8216bis 4.4.4.9: each Partial Segment lasts at least 85% of PART-TARGET, except INDEPENDENT and GAP
    /// parts, a part followed by a GAP part, and the last part of its parent; the last part of the parent
    /// still being written may be its final one.
    @Test func partialSegmentsTooShort() throws {
        let playlist = { (parts: [String], closed: Bool) in
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1.0\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0\n"
                + parts.map { "#EXT-X-PART:\($0)\n" }.joined() + (closed ? "#EXTINF:3.0,\na.mp4\n" : "")
        }
        let short = #"DURATION=0.8,URI="b.mp4""#
        let full = #"DURATION=1.0,URI="c.mp4""#
        let message = try #require(try Self.message("HLS-part-too-short", in: playlist([full, short, full], true)))
        #expect(message.hasPrefix("this part lasts 0.8 s, under 85% of PART-TARGET=1.0 (0.85 s)"), "\(message)")
        #expect(try Self.message("HLS-part-too-short", in: playlist([full, #"DURATION=0.85,URI="b.mp4""#, full], true)) == nil)
        #expect(try Self.message("HLS-part-too-short", in: playlist([full, short + ",INDEPENDENT=YES", full], true)) == nil)
        #expect(try Self.message("HLS-part-too-short", in: playlist([full, short, full + ",GAP=YES"], true)) == nil)
        #expect(try Self.message("HLS-part-too-short", in: playlist([full, full, short], true)) == nil)
        #expect(try Self.message("HLS-part-too-short", in: playlist([full, full, short], false)) == nil)
    }

    /// rfc8216bis 4.4.5.1: a DATERANGE date SHOULD have a time zone and milliseconds; one finding a playlist;
    /// a date that is no date is HLS-daterange's, not also this one's.
    @Test func dateRangeDatePrecision() throws {
        let playlist = { (dates: [String]) in
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
                + dates.enumerated().map { #"#EXT-X-DATERANGE:ID="\#($0.offset)",START-DATE="\#($0.element)""# + "\n" }.joined()
                + "#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        }
        let found = try PlaylistValidator.validate(
            MemorySource(Array(playlist(["2026-01-01T00:00:01", "2026-01-01T00:00:02+01:00"]).utf8)), path: "t.m3u8"
        ).diagnostics.filter { $0.id == "HLS-daterange-precision" }
        #expect(
            found.map(\.message) == [
                "write START-DATE with a time zone (Z or ±hh:mm) and milliseconds: 2026-01-01T00:00:01.000Z (if the time is UTC; else its offset, as +01:00)"
            ])
        #expect(try Self.message("HLS-daterange-precision", in: playlist(["2026-01-01T00:00:01.000Z"])) == nil)
        #expect(try Self.message("HLS-daterange-precision", in: playlist(["invalid"])) == nil)
    }

    /// rfc8216bis 6.2.1: EXT-X-VERSION SHOULD NOT be higher than the tags and attributes need (section 8);
    /// an EXTINF over the target that rounds to it needs version 6; CAN-SKIP-UNTIL needs the delta updates'
    /// 9; a multivariant playlist is not judged.
    @Test func versionHigherThanNeeded() throws {
        let media = { (version: Int, lines: String) in
            "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:6\n\(lines)#EXTINF:6.0,\na.ts\n#EXT-X-ENDLIST\n"
        }
        let key = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""# + "\n"
        let message = try #require(try Self.message("HLS-version-too-high", in: media(7, key)))
        #expect(
            message.hasPrefix(
                "EXT-X-VERSION:7 is higher than this playlist needs; the newest thing it has, the KEYFORMAT attribute (line 4), needs version 5: write EXT-X-VERSION:5"
            ), "\(message)")
        #expect(try Self.message("HLS-version-too-high", in: media(5, key)) == nil)
        #expect(try Self.message("HLS-version-too-high", in: media(4, "")) != nil)
        #expect(try Self.message("HLS-version-too-high", in: media(3, "")) == nil)
        let rounded = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.4,\na.ts\n#EXT-X-ENDLIST\n"
        #expect(try Self.message("HLS-version-too-high", in: rounded) == nil)
        #expect(try Self.message("HLS-version-too-high", in: media(9, "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36\n")) == nil)
        let master = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.64001f\"\nv.m3u8\n"
        #expect(try Self.message("HLS-version-too-high", in: master) == nil)
    }

    /// rfc8216bis 8: INSTREAM-ID on an EXT-X-MEDIA that is not CLOSED-CAPTIONS needs version 13.
    @Test func instreamIDOutsideCaptionsNeedsThirteen() throws {
        let master = { (version: Int) in
            "#EXTM3U\n#EXT-X-VERSION:\(version)\n"
                + #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",INSTREAM-ID="CC1",URI="s.m3u8""#
                + "\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.64001f\",SUBTITLES=\"s\"\nv.m3u8\n"
        }
        let message = try #require(try Self.message("HLS-version-too-low", in: master(7)))
        #expect(message.hasPrefix("INSTREAM-ID on an EXT-X-MEDIA that is not CLOSED-CAPTIONS needs version 13"), "\(message)")
        #expect(try Self.message("HLS-version-too-low", in: master(13)) == nil)
    }

    /// A header with spaces around it is one finding that says which spaces to remove, in a media playlist
    /// and in a master alike: no knock-on (a master read as media, an EXTINF missing).
    @Test func headerWithSpacesIsOneFinding() throws {
        let master = "#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS=\"avc1.64001f\"\nv.m3u8\n"
        let media = "#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        for (header, side) in [("#EXTM3U ", "after"), (" #EXTM3U", "before"), ("  #EXTM3U  ", "around")] {
            for body in [master, media] {
                let found = try PlaylistValidator.validate(MemorySource(Array((header + "\n" + body).utf8)), path: "t.m3u8").diagnostics
                #expect(found.map(\.id) == ["HLS-extm3u-first"], "\(header) \(found)")
                #expect(found.first?.message == "the first line must be exactly #EXTM3U: remove the spaces \(side) it")
            }
        }
    }

    /// rfc8216bis 4.4.6.1 makes INSTREAM-ID OPTIONAL for TYPEs other than CLOSED-CAPTIONS (letters, digits and
    /// '.'); RFC 8216 forbade it. At version 13 such a rendition is clean; a character outside the set is not.
    @Test func instreamIDOnOtherTypes() throws {
        let master = { (id: String) in
            "#EXTM3U\n#EXT-X-VERSION:13\n"
                + #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",LANGUAGE="en",CHANNELS="2",INSTREAM-ID="\#(id)",URI="a.m3u8""#
                + "\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\",AUDIO=\"a\"\nv.m3u8\n"
        }
        #expect(try Self.ids(master("track.1")).filter { $0.rawValue.hasPrefix("HLS-") } == [])
        let message = try #require(try Self.message("HLS-media-attributes", in: master("track-1")))
        #expect(message == #"INSTREAM-ID of TYPE=AUDIO is letters, digits and '.', found "track-1" (rfc8216bis 4.4.6.1)"#)
    }

    /// rfc8216bis 4.4.5.1: a client attribute's number is a signed-decimal-floating-point.
    @Test func clientAttributeSignedNumber() throws {
        let playlist = { (value: String) in
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
                + #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-01-01T00:00:00.000Z",X-COM-EXAMPLE-OFFSET=\#(value)"#
                + "\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        }
        #expect(try Self.message("HLS-daterange", in: playlist("-1.5")) == nil)
        #expect(try Self.message("HLS-daterange", in: playlist("1.5")) == nil)
        #expect(try Self.message("HLS-daterange", in: playlist("ABC")) != nil)
    }

    /// "to at least millisecond accuracy": `.5` is a fraction, not milliseconds.
    @Test func millisecondAccuracy() throws {
        let playlist = { (date: String) in
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:\(date)\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        }
        #expect(
            try Self.message("HLS-program-date-time-precision", in: playlist("2026-01-01T00:00:00.5Z"))
                == "write the date with milliseconds: 2026-01-01T00:00:00.500Z")
        #expect(try Self.message("HLS-program-date-time-precision", in: playlist("2026-01-01T00:00:00.500Z")) == nil)
        #expect(try Self.message("HLS-program-date-time-precision", in: playlist("2026-01-01T00:00:00.123456Z")) == nil)
    }
}
