import Foundation
import HLS
import SKDPack
import SKDValidation
import Testing

/// One requirement of the table in `docs/requirements.md`, broken: the playlist (and, for a package rule,
/// its media playlist) that must make the rule of that row speak.
struct RequirementCase: Sendable, CustomTestStringConvertible {
    var ref: String
    var rule: DiagnosticID
    var bytes: [UInt8]
    /// A media playlist beside a master: the row's rule is a package rule.
    var media: String?
    /// More media playlists of the package (`o0.m3u8`, `o1.m3u8`, …), for a rule that compares them.
    var others: [String] = []
    /// The master names that media playlist in an EXT-X-I-FRAME-STREAM-INF.
    var isIFrames = false
    /// Validated with `--segments` in the folder of the rule fixtures, whose segments it names.
    var segments = false

    init(
        _ ref: String, _ rule: DiagnosticID, _ text: String, media: String? = nil, others: [String] = [], isIFrames: Bool = false,
        segments: Bool = false
    ) {
        self.init(ref, rule, bytes: Array(text.utf8), media: media)
        self.others = others
        self.isIFrames = isIFrames
        self.segments = segments
    }

    init(_ ref: String, _ rule: DiagnosticID, bytes: [UInt8], media: String? = nil) {
        self.ref = ref
        self.rule = rule
        self.bytes = bytes
        self.media = media
    }

    var testDescription: String { "\(ref) \(rule.rawValue)" }
}

/// A media playlist: the header at `version`, `lines`, then one segment and EXT-X-ENDLIST (unless `ended`
/// is false).
private func media(_ lines: String..., version: Int = 12, ended: Bool = true) -> String {
    "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:10\n" + lines.map { $0 + "\n" }.joined()
        + "#EXTINF:10,\na.ts\n" + (ended ? "#EXT-X-ENDLIST\n" : "")
}

/// A master playlist: `lines`, then one variant (whose attributes `variant` extends).
private func master(_ lines: String..., variant: String = "") -> String {
    "#EXTM3U\n#EXT-X-VERSION:12\n" + lines.map { $0 + "\n" }.joined()
        + "#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS=\"avc1.640028\"\(variant)\nv.m3u8\n"
}

private let pdt = "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z"
private let start = #"START-DATE="2026-11-23T10:00:00.000Z""#
private let fairPlay = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://t/1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
private func sessionKey(_ uri: String) -> String {
    fairPlay.replacingOccurrences(of: "EXT-X-KEY", with: "EXT-X-SESSION-KEY").replacingOccurrences(of: "skd://t/1", with: uri)
}
private func audio(_ group: String, _ name: String, _ extra: String = "") -> String {
    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="\#(group)",NAME="\#(name)",CHANNELS="2"\#(extra),URI="\#(group)-\#(name).m3u8""#
}

@Suite("requirements: the table in docs/requirements.md, its rules and a broken playlist per row")
struct RequirementTests {
    static let cases: [RequirementCase] = [
        RequirementCase("4.1-a", "HLS-invalid-utf8", bytes: Array("#EXTM3U\n#EXTINF:10,".utf8) + [0xFF] + Array("\na.ts\n".utf8)),
        RequirementCase("4.1-b", "HLS-byte-order-mark", bytes: [0xEF, 0xBB, 0xBF] + Array(media().utf8)),
        RequirementCase("4.1-c", "HLS-control-character", media("#EXTINF:10,\u{1}", "b.ts")),
        RequirementCase("4.1-c2", "HLS-tab-character", media("#EXTINF:10,\tA title", "b.ts")),
        RequirementCase("4.1-d", "HLS-not-nfc", media("#EXTINF:10,Cafe\u{301}", "b.ts")),
        RequirementCase("4.1-e", "HLS-whitespace", media("#EXTINF:10,", "b.ts ")),
        RequirementCase("4.1-g", "HLS-mixed-playlist", media("#EXT-X-STREAM-INF:BANDWIDTH=1", "v.m3u8")),
        RequirementCase("4.2-a", "HLS-attribute-whitespace", media("#EXT-X-KEY:METHOD =NONE")),
        RequirementCase("4.2-d", "HLS-attribute-duplicate", media("#EXT-X-KEY:METHOD=NONE,METHOD=NONE")),
        RequirementCase("4.2-e", "HLS-attribute-type", master(variant: #",AVERAGE-BANDWIDTH="1""#)),
        RequirementCase("4.2-f", "HLS-attribute-value", master(#"#EXT-X-MEDIA:TYPE=audio,GROUP-ID="a",NAME="en",URI="en.m3u8""#)),
        RequirementCase("4.3.1.1-a", "HLS-extm3u-first", "\n" + media()),
        RequirementCase(
            "4.3.1.2-a", "HLS-version-too-low",
            media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF"#, version: 1)),
        RequirementCase("4.3.1.2-b", "HLS-tag-repeated", media("#EXT-X-VERSION:12")),
        RequirementCase("4.3.2-a", "HLS-mixed-playlist", master() + "#EXT-X-DISCONTINUITY\n"),
        RequirementCase("4.3.2.1-a", "HLS-extinf-missing", media("b.ts")),
        RequirementCase("4.3.2.1-c", "HLS-version-too-low", media("#EXTINF:9.5,", "b.ts", version: 2)),
        RequirementCase("4.3.2.2-a", "HLS-byterange-without-offset", media("#EXTINF:10,", "#EXT-X-BYTERANGE:1000", "b.ts")),
        RequirementCase("4.3.2.4-a", "KEY-method-missing", media(#"#EXT-X-KEY:URI="k""#)),
        RequirementCase("4.3.2.4-b", "KEY-method-unknown", media(#"#EXT-X-KEY:METHOD=AES-512,URI="k""#)),
        RequirementCase("4.3.2.4-c", "KEY-none-with-attributes", media(#"#EXT-X-KEY:METHOD=NONE,URI="k""#)),
        RequirementCase("4.3.2.4-d", "KEY-uri-missing", media("#EXT-X-KEY:METHOD=AES-128")),
        RequirementCase("4.3.2.4-e", "KEY-iv-format", media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF01"#)),
        RequirementCase(
            "4.3.2.4-f", "KEY-method-mismatch",
            media(fairPlay, #"#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="data:x",KEYFORMAT="com.microsoft.playready""#)),
        RequirementCase("4.3.2.5-a", "HLS-attribute-missing", media(#"#EXT-X-MAP:BYTERANGE="100@0""#)),
        RequirementCase("4.3.2.5-d", "HLS-map-key-without-iv", media(#"#EXT-X-KEY:METHOD=AES-128,URI="k""#, #"#EXT-X-MAP:URI="i.mp4""#)),
        RequirementCase("4.3.2.6-a", "HLS-program-date-time-precision", media("#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00")),
        RequirementCase("4.3.2.6-b", "HLS-tag-value", media("#EXT-X-PROGRAM-DATE-TIME:yesterday")),
        RequirementCase("4.3.2.7-a", "HLS-attribute-missing", media(pdt, "#EXT-X-DATERANGE:\(start)")),
        RequirementCase("4.3.2.7-c", "HLS-daterange", media(pdt, #"#EXT-X-DATERANGE:ID="a",DURATION=10"#)),
        RequirementCase(
            "4.3.2.7-d", "HLS-daterange", media(pdt, #"#EXT-X-DATERANGE:ID="a",\#(start),END-DATE="2026-11-23T09:59:59.000Z""#)),
        RequirementCase("4.3.2.7-e", "HLS-attribute-type", media(pdt, #"#EXT-X-DATERANGE:ID="a",\#(start),DURATION=-1"#)),
        RequirementCase("4.3.2.7-f", "HLS-daterange", media(pdt, #"#EXT-X-DATERANGE:ID="a",\#(start),X-COM-EXAMPLE-AD=YES"#)),
        RequirementCase("4.3.2.7-g", "HLS-attribute-value", media(pdt, #"#EXT-X-DATERANGE:ID="a",CLASS="c",\#(start),END-ON-NEXT=NO"#)),
        RequirementCase("4.3.2.7-h", "HLS-daterange", media(pdt, #"#EXT-X-DATERANGE:ID="a",\#(start),END-ON-NEXT=YES"#)),
        RequirementCase(
            "4.3.2.7-i", "HLS-daterange-overlap",
            media(
                pdt, #"#EXT-X-DATERANGE:ID="a",CLASS="c",\#(start),DURATION=60"#,
                #"#EXT-X-DATERANGE:ID="b",CLASS="c",START-DATE="2026-11-23T10:00:30.000Z",END-ON-NEXT=YES"#)),
        RequirementCase(
            "4.3.2.7-j", "HLS-daterange", media(pdt, #"#EXT-X-DATERANGE:ID="a",CLASS="c",\#(start),DURATION=5,END-ON-NEXT=YES"#)),
        RequirementCase("4.3.2.7-k", "HLS-daterange-without-program-date-time", media(#"#EXT-X-DATERANGE:ID="a",\#(start)"#)),
        RequirementCase(
            "4.3.2.7-l", "HLS-daterange",
            media(pdt, #"#EXT-X-DATERANGE:ID="a",CLASS="x",\#(start)"#, #"#EXT-X-DATERANGE:ID="a",CLASS="y",\#(start)"#)),
        RequirementCase(
            "4.3.2.7-m", "HLS-daterange",
            media(
                pdt,
                #"#EXT-X-DATERANGE:ID="a",\#(start),DURATION=30,END-DATE="2026-11-23T11:00:30.000+01:00""#.replacingOccurrences(
                    of: "30.000+", with: "31.000+"))),
        RequirementCase("4.3.3-a", "HLS-tag-repeated", media("#EXT-X-TARGETDURATION:10")),
        RequirementCase("4.3.3-b", "HLS-mixed-playlist", master("#EXT-X-TARGETDURATION:10")),
        RequirementCase("4.3.3.1-a", "HLS-extinf-over-target", media("#EXTINF:10.6,", "b.ts")),
        RequirementCase("4.3.3.1-b", "HLS-targetduration-missing", "#EXTM3U\n#EXTINF:10,\na.ts\n"),
        RequirementCase("4.3.3.2-b", "HLS-sequence-tag-late", media() + "#EXT-X-MEDIA-SEQUENCE:2\n"),
        RequirementCase("4.3.3.3-a", "HLS-sequence-tag-late", media() + "#EXT-X-DISCONTINUITY-SEQUENCE:2\n"),
        RequirementCase("4.3.3.3-b", "HLS-sequence-tag-late", media("#EXT-X-DISCONTINUITY", "#EXT-X-DISCONTINUITY-SEQUENCE:2")),
        RequirementCase("4.3.3.5-a", "HLS-tag-value", media("#EXT-X-PLAYLIST-TYPE:LIVE")),
        RequirementCase("4.3.4-a", "HLS-mixed-playlist", media(#"#EXT-X-SESSION-DATA:DATA-ID="x",VALUE="y""#)),
        RequirementCase("4.3.4.1-a", "HLS-attribute-missing", master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="en.m3u8""#)),
        RequirementCase(
            "4.3.4.1-b", "HLS-media-attributes",
            master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="c",NAME="en",INSTREAM-ID="CC1",URI="c.m3u8""#)),
        RequirementCase("4.3.4.1-d", "HLS-media-attributes", master(audio("a", "en", ",DEFAULT=YES,AUTOSELECT=NO"))),
        RequirementCase("4.3.4.1-e", "HLS-media-attributes", master(audio("a", "en", ",FORCED=NO"))),
        RequirementCase(
            "4.3.4.1-f", "HLS-media-attributes", master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="c",NAME="en",INSTREAM-ID="CC5""#)),
        RequirementCase("4.3.4.1-g", "HLS-media-attributes", master(audio("a", "en", #",INSTREAM-ID="track-1""#))),
        RequirementCase("4.3.4.1-h", "HLS-channels-missing", master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en.m3u8""#)),
        RequirementCase(
            "4.3.4.1.1-b", "HLS-media-group", master(audio("a", "en"), audio("a", "en").replacingOccurrences(of: "a-en", with: "a-en2"))),
        RequirementCase("4.3.4.1.1-c", "HLS-media-group", master(audio("a", "en", ",DEFAULT=YES"), audio("a", "fr", ",DEFAULT=YES"))),
        RequirementCase(
            "4.3.4.1.1-d", "HLS-autoselect-alike",
            master(audio("a", "en", #",LANGUAGE="en",AUTOSELECT=YES"#), audio("a", "en2", #",LANGUAGE="en",AUTOSELECT=YES"#))),
        RequirementCase("4.3.4.1.1-e", "HLS-media-group", master(audio("stereo", "en"), audio("stereo", "fr"), audio("surround", "en"))),
        RequirementCase("4.3.4.2-a", "HLS-stream-inf-without-uri", master() + "#EXT-X-STREAM-INF:BANDWIDTH=2\n"),
        RequirementCase("4.3.4.2-c", "HLS-attribute-missing", "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"avc1.640028\"\nv.m3u8\n"),
        RequirementCase("4.3.4.2-e", "HLS-codecs-missing", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"),
        RequirementCase("4.3.4.2-h", "HLS-group-missing", master(variant: #",AUDIO="aac""#)),
        RequirementCase("4.3.4.2-i", "HLS-group-missing", master(audio("cam", "one"), variant: #",VIDEO="cam""#)),
        RequirementCase("4.3.4.2-j", "HLS-group-missing", master(variant: #",SUBTITLES="subs""#)),
        RequirementCase("4.3.4.2-k", "HLS-group-missing", master(variant: #",CLOSED-CAPTIONS="cc""#)),
        RequirementCase(
            "4.3.4.2-l", "HLS-group-missing",
            master("#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.640028\",CLOSED-CAPTIONS=NONE\nv0.m3u8")),
        RequirementCase("4.3.4.2.1-b", "HLS-media-attributes", master(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en""#)),
        RequirementCase(
            "4.3.4.2.1-c", "HLS-media-attributes",
            master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="c",NAME="en",INSTREAM-ID="SERVICE2",URI="c.m3u8""#)),
        RequirementCase("4.3.4.3-b", "HLS-attribute-missing", master("#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1")),
        RequirementCase(
            "4.3.4.3-a", "PKG-iframe-playlist", master(#"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,CODECS="avc1.640028",URI="v.m3u8""#),
            media: media(), isIFrames: true),
        RequirementCase("4.3.4.4-a", "HLS-attribute-missing", master(#"#EXT-X-SESSION-DATA:VALUE="x""#)),
        RequirementCase("4.3.4.4-c", "HLS-session-data", master(#"#EXT-X-SESSION-DATA:DATA-ID="com.example.x""#)),
        RequirementCase(
            "4.3.4.4-d", "HLS-session-data",
            master(#"#EXT-X-SESSION-DATA:DATA-ID="com.example.x",VALUE="1""#, #"#EXT-X-SESSION-DATA:DATA-ID="com.example.x",VALUE="2""#)),
        RequirementCase("4.3.4.5-a", "KEY-session-none", master("#EXT-X-SESSION-KEY:METHOD=NONE")),
        RequirementCase("4.3.4.5-b", "PKG-session-key-unused", master(sessionKey("skd://t/old")), media: media(fairPlay)),
        RequirementCase(
            "4.3.4.5-c", "PKG-session-key-missing", master(sessionKey("skd://t/1")),
            media: media(fairPlay, fairPlay.replacingOccurrences(of: "skd://t/1", with: "skd://t/2"))),
        RequirementCase("4.3.4.5-d", "KEY-session-duplicate", master(sessionKey("skd://t/1"), sessionKey("skd://t/1"))),
        RequirementCase(
            "4.3.5-a", "PKG-shared-tag-repeated", master("#EXT-X-INDEPENDENT-SEGMENTS"), media: media("#EXT-X-INDEPENDENT-SEGMENTS")),
        RequirementCase(
            "4.3.5-a2", "PKG-shared-tag-differs", master("#EXT-X-START:TIME-OFFSET=0"), media: media("#EXT-X-START:TIME-OFFSET=2")),
        RequirementCase("4.3.5-b", "HLS-tag-repeated", media("#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-INDEPENDENT-SEGMENTS")),
        RequirementCase("4.3.5.2-a", "HLS-attribute-missing", media("#EXT-X-START:PRECISE=YES")),
        RequirementCase("4.3.5.2-b", "HLS-start-offset", media("#EXT-X-START:TIME-OFFSET=-5", ended: false)),
        RequirementCase("bis-4.4.2.3-a", "HLS-define-attributes", media(#"#EXT-X-DEFINE:NAME="b$se",VALUE="x""#)),
        RequirementCase(
            "bis-4.4.2.3-b", "HLS-define-duplicate", media(#"#EXT-X-DEFINE:NAME="b",VALUE="x""#, #"#EXT-X-DEFINE:NAME="b",VALUE="y""#)),
        RequirementCase("bis-4.3-a", "HLS-undefined-variable", media("#EXTINF:10,", "{$base}b.ts")),
        RequirementCase(
            "bis-4.4.3.4-a", "HLS-low-latency",
            media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3", #"#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p.mp4""#)),
        RequirementCase("bis-4.4.3.7-a", "HLS-low-latency", media(#"#EXT-X-PART:DURATION=1,URI="p.mp4""#)),
        RequirementCase(
            "bis-4.4.3.7-b", "HLS-low-latency",
            media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3", #"#EXT-X-PART:DURATION=1.5,URI="p.mp4""#)),
        RequirementCase("bis-4.4.3.8-a", "HLS-server-control", media("#EXT-X-SERVER-CONTROL:HOLD-BACK=29")),
        RequirementCase(
            "bis-4.4.3.8-b", "HLS-server-control", media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES")),
        RequirementCase("bis-4.4.3.8-b2", "HLS-server-control", media("#EXT-X-PART-INF:PART-TARGET=1")),
        RequirementCase("bis-4.4.3.8-c", "HLS-server-control", media("#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=30")),
        RequirementCase("bis-4.4.3.8-d", "HLS-low-latency", media("#EXT-X-SERVER-CONTROL:CAN-SKIP-DATERANGES=YES")),
        RequirementCase("bis-4.4.4.9-a", "HLS-attribute-missing", media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-PART:DURATION=1")),
        RequirementCase("bis-4.4.5.2-a", "HLS-attribute-missing", media(#"#EXT-X-SKIP:RECENTLY-REMOVED-DATERANGES="a""#)),
        RequirementCase("bis-4.4.5.3-a", "HLS-attribute-value", media(#"#EXT-X-PRELOAD-HINT:TYPE=SEGMENT,URI="s.mp4""#, ended: false)),
        RequirementCase("bis-8-a", "HLS-version-too-low", media("#EXT-X-SKIP:SKIPPED-SEGMENTS=3", version: 8)),
        RequirementCase(
            "bis-4.4.4.4-a", "KEY-iv-forbidden", media(#"#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k",IV=0x00000000000000000000000000000001"#)),
        RequirementCase(
            "bis-4.4.6.6-a", "HLS-steering-pathway",
            master(
                #"#EXT-X-CONTENT-STEERING:SERVER-URI="https://s.example.com/m.json",PATHWAY-ID="CDN-B""#, variant: #",PATHWAY-ID="CDN-A""#)),
        RequirementCase(
            "bis-4.4.3.8-e", "HLS-part-hold-back",
            media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=2.5", ended: false)),
        RequirementCase("bis-6.2.1-a", "HLS-vod-without-endlist", media("#EXT-X-PLAYLIST-TYPE:VOD", ended: false)),
        RequirementCase(
            "bis-6.2.1-b", "HLS-program-date-time-overlap",
            media(pdt, "#EXTINF:10,", "b.ts", "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:05.000Z")),
        RequirementCase(
            "bis-4.4.4.9-b", "HLS-part-too-short",
            media(
                "#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3", #"#EXT-X-PART:DURATION=1,URI="p0.ts""#,
                #"#EXT-X-PART:DURATION=0.5,URI="p1.ts""#, #"#EXT-X-PART:DURATION=1,URI="p2.ts""#, ended: false)),
        RequirementCase(
            "bis-6.2.4-a", "PKG-target-duration", master(), media: media(),
            others: [media().replacingOccurrences(of: "TARGETDURATION:10", with: "TARGETDURATION:6")]),
        RequirementCase(
            "bis-6.2.4-b", "PKG-playlist-type", master(), media: media("#EXT-X-PLAYLIST-TYPE:VOD"), others: [media()]),
        RequirementCase(
            "bis-8-b", "HLS-version-too-low",
            master(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",INSTREAM-ID="CC1",URI="s.m3u8""#)),
        RequirementCase(
            "bis-4.4.5.1-b", "HLS-daterange-precision", media(pdt, #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-11-23T10:00:00Z""#)),
        RequirementCase("bis-6.2.1-c", "HLS-version-too-high", media(version: 5)),
        RequirementCase(
            "bis-4.4.3.1-a", "HLS-targetduration-missing", media().replacingOccurrences(of: "TARGETDURATION:10", with: "TARGETDURATION:0")),
        RequirementCase("bis-4.4.5.2-b", "HLS-tag-repeated", media("#EXT-X-SKIP:SKIPPED-SEGMENTS=3", "#EXT-X-SKIP:SKIPPED-SEGMENTS=3")),
        RequirementCase("bis-4.4.4.5-a", "HLS-byterange-without-offset", media(#"#EXT-X-MAP:URI="init.mp4",BYTERANGE="720""#)),
        RequirementCase(
            "bis-4.4.4.9-c", "HLS-low-latency",
            media(
                "#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3", #"#EXT-X-PART:DURATION=1,URI="p0.ts""#,
                "#EXT-X-DISCONTINUITY", #"#EXT-X-PART:DURATION=1,URI="p1.ts""#, ended: false)),
        RequirementCase(
            "bis-4.4.5.1-c", "HLS-daterange", media(pdt, #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-11-23T10:00:00.000Z",CUE="PRE,POST""#)),
        RequirementCase("bis-4.4.2.3-c", "HLS-define-attributes", master(#"#EXT-X-DEFINE:IMPORT="host""#)),
        RequirementCase(
            "bis-4.4.6.1-a", "HLS-media-attributes",
            master(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",LANGUAGE="en",CHANNELS="2",URI="s.m3u8""#)),
        RequirementCase(
            "bis-4.4.6.6-b", "HLS-tag-repeated",
            master(#"#EXT-X-CONTENT-STEERING:SERVER-URI="/s.json""#, #"#EXT-X-CONTENT-STEERING:SERVER-URI="/s.json""#)),
        // With --segments, against segments written box by box (SegmentRuleCases: 2-second fragments).
        RequirementCase(
            "4.3.2.1-b", "SEG-extinf-duration", SegmentRuleCases.playlist(target: 4, [(2, "s0.m4s"), (3.5, "s1.m4s")]), segments: true),
        RequirementCase("4.3.3.6-b", "SEG-iframe-with-init", SegmentRuleCases.iFrames("s0-with-init.m4s"), segments: true),
        RequirementCase("4.3.2.3-a", "SEG-timestamp-jump", SegmentRuleCases.playlist([(2, "s0.m4s"), (2, "s1-late.m4s")]), segments: true),
        RequirementCase(
            "4.3.4.1.1-f", "PKG-codecs-measured", measuredMaster(codecs: "mp4a.40.2"), media: SegmentRuleCases.playlist([(2, "s0.m4s")]),
            segments: true),
        RequirementCase(
            "4.3.4.2-f", "PKG-frame-rate-measured", measuredMaster(), media: SegmentRuleCases.playlist([(2, "s0-fast.m4s")]), segments: true
        ),
        RequirementCase(
            "4.3.4.2-b", "PKG-bandwidth-measured", measuredMaster(bandwidth: 1000), media: SegmentRuleCases.playlist([(2, "s0.m4s")]),
            segments: true),
        RequirementCase(
            "4.3.4.2-d", "PKG-bandwidth-measured", measuredMaster(average: 100), media: SegmentRuleCases.playlist([(2, "s0.m4s")]),
            segments: true),
        RequirementCase(
            "4.3.4.2.1-a", "PKG-bandwidth-measured", measuredMaster(bandwidth: 1000), media: SegmentRuleCases.playlist([(2, "s0.m4s")]),
            segments: true),
    ]

    /// A master over `v.m3u8` (2-second fragments of 50 samples of 10 bytes: 2,000 bit/s), as declared.
    static func measuredMaster(bandwidth: Int = 2000, average: Int = 2000, codecs: String = "avc1.64001f") -> String {
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),AVERAGE-BANDWIDTH=\(average),CODECS=\"\(codecs)\"\nv.m3u8\n"
    }

    @Test("a knock-on is not reported twice: a rendition with a misspelt TYPE is that finding, not also a missing group")
    func knockOn() throws {
        let text = master(
            #"#EXT-X-MEDIA:TYPE=audio,GROUP-ID="aac",NAME="en",CHANNELS="2",FORCED=NO,URI="en.m3u8""#, variant: #",AUDIO="aac""#)
        let ids = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics.map(\.id)
        #expect(ids == ["HLS-attribute-value"])
    }

    @Test("an EXT-X-VERSION that cannot be read is that finding, not also every feature judged against version 1")
    func unreadableVersion() throws {
        let text = media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF"#, version: 12)
            .replacingOccurrences(of: "#EXT-X-VERSION:12", with: "#EXT-X-VERSION: 12")
        let ids = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "t.m3u8").diagnostics.map(\.id)
        #expect(ids.contains("HLS-tag-value"))
        #expect(!ids.contains("HLS-version-too-low"))
    }

    @Test("each broken playlist makes the rule of its row speak", arguments: cases)
    func breaks(_ requirement: RequirementCase) throws {
        let found: [Diagnostic]
        let folder = requirement.segments ? KeyTruthFixtures.directory + "/" : ""
        let options = requirement.segments ? KeyTruthFixtures.options(segments: true) : ValidationOptions()
        if let mediaText = requirement.media {
            let master = try PlaylistValidator.validate(MemorySource(requirement.bytes), path: folder + "master.m3u8", options: options)
            let media = try PlaylistValidator.validate(MemorySource(Array(mediaText.utf8)), path: folder + "v.m3u8", options: options)
            let others = try requirement.others.enumerated().map { index, text in
                try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: folder + "o\(index).m3u8", options: options)
            }
            found = PackageValidator.validate(
                master: master, media: [media] + others, iFramePlaylists: requirement.isIFrames ? [folder + "v.m3u8"] : [])
        } else {
            found = try PlaylistValidator.validate(MemorySource(requirement.bytes), path: folder + "t.m3u8", options: options).diagnostics
        }
        #expect(found.contains { $0.id == requirement.rule }, "\(found)")
    }

    /// The rows of the table: ref, level, and the rule (nil for "—").
    static func tableRows() throws -> [(ref: String, level: String, rule: DiagnosticID?, note: String)] {
        let text = try String(contentsOf: RequirementTable.url, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 8, cells[1] != "Ref", !cells[1].hasPrefix("---") else { return nil }
            let rule = cells[5] == "—" ? nil : DiagnosticID(rawValue: cells[5].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
            return (cells[1], cells[3], rule, cells[6])
        }
    }

    @Test("every rule the table names exists, and is graded as its sentence: a MUST an error, a SHOULD a warning")
    func tableNamesRealRules() throws {
        let rows = try Self.tableRows()
        #expect(rows.count > 100)
        for row in rows {
            guard let rule = row.rule else {
                #expect(!row.note.isEmpty, "\(row.ref) has no rule and says not why")
                continue
            }
            let kind = try #require(FindingKinds.kind(rule), "\(row.ref) names \(rule), which is no rule")
            switch row.level {
            case "MUST", "MUST NOT", "REQUIRED": #expect(kind.severity == .error, "\(row.ref): \(rule) is \(kind.severity)")
            case "SHOULD", "SHOULD NOT": #expect(kind.severity == .warning, "\(row.ref): \(rule) is \(kind.severity)")
            default: break
            }
        }
    }

    @Test("every checked row has its broken playlist here, and every case here is a row of the table, with its rule")
    func casesMatchTheTable() throws {
        let rows = try Self.tableRows()
        let checked = Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.rule.map { (row.ref, $0) } })
        let cases = Dictionary(uniqueKeysWithValues: Self.cases.map { ($0.ref, $0.rule) })
        #expect(Set(checked.keys) == Set(cases.keys))
        for (ref, rule) in cases { #expect(checked[ref] == rule, "\(ref)") }
    }

    @Test("the summary's counts are the table's")
    func summaryCounts() throws {
        let rows = try Self.tableRows()
        let text = try String(contentsOf: RequirementTable.url, encoding: .utf8)
        func group(_ level: String) -> String {
            ["MUST", "MUST NOT", "REQUIRED"].contains(level) ? "MUST" : (["SHOULD", "SHOULD NOT"].contains(level) ? "SHOULD" : "MAY")
        }
        for (label, name) in [("MUST, MUST NOT, REQUIRED", "MUST"), ("SHOULD, SHOULD NOT", "SHOULD"), ("MAY", "MAY")] {
            let mine = rows.filter { group($0.level) == name }
            let checked = mine.filter { $0.rule != nil }.count
            let left = mine.filter { $0.rule == nil && $0.note.hasPrefix("left:") }.count
            let unchecked = mine.count - checked - left
            #expect(text.contains("| \(label) | \(checked) | \(unchecked) | \(left) | \(mine.count) |"), "\(label)")
        }
    }
}

/// Where the table is: `docs/requirements.md` of this repository.
enum RequirementTable {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/requirements.md")
}
