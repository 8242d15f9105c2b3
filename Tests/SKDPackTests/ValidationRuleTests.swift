import HLS
import SKDKeys
import SKDPack
import SKDTemplate
import SKDValidation
import Testing

/// One validation rule seen from both sides: a playlist that breaks it (with where the finding must be)
/// and a close variant that is right and must not trigger it.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: DiagnosticID
    var severity: Severity
    var line: Int
    var column: Int
    var broken: String
    var correct: String
    var options = ValidationOptions()
    /// The options of the correct playlist, when not the same.
    var correctOptions: ValidationOptions?
    /// Validated as a playlist of the folder of ``KeyTruthFixtures`` (whose init segments it names).
    var inFixtures = false

    var testDescription: String { rule.rawValue }

    var path: String { inFixtures ? KeyTruthFixtures.directory + "/t.m3u8" : "t.m3u8" }
}

/// The template options with a catalogue that has a row (content id 42) for the playlist at `path` only.
private func catalogueOptions(listing path: String) -> ValidationOptions {
    var options = templateOptions
    options.titleValues = VariableSources(catalog: try! Catalog.csv("path,content_id\n\(path),42\n", path: "catalog.csv"))
    return options
}

/// Options that check keys against the entitlement template, pinned to a server, and allow that server.
private let templateOptions: ValidationOptions = {
    var options = ValidationOptions()
    let definition = try! TemplateLibrary().resolve("entitlement")
    options.templateMatcher = try! TemplateMatcher(
        definition: definition, pinned: ["entitlement_url": "https://lic.example.com/fps"])
    options.allowHosts = ["lic.example.com"]
    return options
}()

private func entitlementKey(_ uri: String) -> String {
    fairPlayKey.replacingOccurrences(of: "skd://title-1", with: uri)
}

/// Options with the reader's limits on a playlist's size and segment count set low.
private func readerLimits(size: Int = .max, segments: Int = .max) -> ValidationOptions {
    var options = ValidationOptions()
    options.reader.maximumPlaylistSize = size
    options.reader.maximumSegmentCount = segments
    return options
}

/// A FairPlay key line, the one most cases start from.
private let fairPlayKey =
    #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#

/// A media playlist at version 5 with `lines` after the header and two segments.
private func media(_ lines: String..., version: Int = 5, target: Int = 10) -> String {
    "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:\(target)\n" + lines.map { $0 + "\n" }.joined()
        + "#EXTINF:10,\na.ts\n#EXTINF:10,\nb.ts\n#EXT-X-ENDLIST\n"
}

/// Options that check keys against the key-id template (`skd://{kid}`).
private let keyIDOptions: ValidationOptions = {
    var options = ValidationOptions()
    options.templateMatcher = try! TemplateMatcher(definition: try! TemplateLibrary().resolve("key-id"))
    return options
}()

/// Two key periods with Widevine keys of different KEYIDs and a FairPlay key in the first, and in the second
/// when `fairPlayInSecondPeriod`; the FairPlay keys' URIs are `uris` (the last one for the rest).
private func rotated(fairPlayInSecondPeriod: Bool, uris: [String] = ["skd://title-1"]) -> String {
    let widevine = { (kid: String) in
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\#(kid),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
    }
    let fairPlay = { (period: Int) in fairPlayKey.replacingOccurrences(of: "skd://title-1", with: uris[min(period, uris.count - 1)]) }
    let second = [widevine(String(repeating: "B", count: 32))] + (fairPlayInSecondPeriod ? [fairPlay(1)] : [])
    let lines =
        [widevine(String(repeating: "A", count: 32)), fairPlay(0), "#EXTINF:10,", "a.ts"] + second + [
            "#EXTINF:10,", "b.ts", "#EXT-X-ENDLIST",
        ]
    return "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n" + lines.map { $0 + "\n" }.joined()
}

/// A master playlist at version 5 with `lines` after the header and one variant.
private func master(_ lines: String...) -> String {
    "#EXTM3U\n#EXT-X-VERSION:5\n" + lines.map { $0 + "\n" }.joined()
        + "#EXT-X-STREAM-INF:BANDWIDTH=1000000\nvideo.m3u8\n"
}

func findings(_ text: String, options: ValidationOptions = ValidationOptions(), path: String = "t.m3u8") throws -> [Diagnostic] {
    try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: path, options: options).diagnostics
}

@Suite("validation rules")
struct ValidationRuleTests {
    static let cases: [RuleCase] =
        [
            // HLS
            // The reader's own findings, which validate reports with the rules'.
            RuleCase(
                rule: "HLS-empty-playlist", severity: .error, line: 1, column: 1,
                broken: "", correct: media()),
            RuleCase(
                rule: "HLS-extm3u-first", severity: .error, line: 1, column: 1,
                broken: "# packaged by x\n" + media(), correct: media()),
            RuleCase(
                rule: "HLS-playlist-too-large", severity: .error, line: 6, column: 4,
                broken: media(), correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
                options: readerLimits(size: 70)),
            RuleCase(
                rule: "HLS-too-many-segments", severity: .error, line: 7, column: 1,
                broken: media(), correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
                options: readerLimits(segments: 1)),
            RuleCase(
                rule: "HLS-byte-order-mark", severity: .error, line: 1, column: 1,
                broken: "\u{FEFF}" + media(), correct: media()),
            RuleCase(
                rule: "HLS-control-character", severity: .error, line: 5, column: 4,
                broken: media().replacingOccurrences(of: "a.ts", with: "a.t\u{07}s"), correct: media()),
            RuleCase(
                rule: "HLS-tab-character", severity: .error, line: 5, column: 2,
                broken: media().replacingOccurrences(of: "a.ts", with: "a\t.ts"), correct: media()),
            RuleCase(
                rule: "HLS-whitespace", severity: .error, line: 5, column: 1,
                broken: media().replacingOccurrences(of: "\na.ts", with: "\n a.ts"), correct: media()),
            RuleCase(
                rule: "HLS-attribute-whitespace", severity: .error, line: 4, column: 30,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES, URI="k""#), correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k""#)),
            RuleCase(
                rule: "HLS-attribute-duplicate", severity: .error, line: 4, column: 38,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k",URI="j""#), correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k""#)),
            RuleCase(
                rule: "HLS-attribute-unterminated-quote", severity: .error, line: 4, column: 34,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"#), correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k""#)),
            RuleCase(
                rule: "HLS-attribute-syntax", severity: .error, line: 4, column: 30,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,,URI="k""#), correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k""#)),
            RuleCase(
                rule: "HLS-attribute-type", severity: .error, line: 4, column: 34,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI=k"#), correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k""#)),
            RuleCase(
                rule: "HLS-attribute-missing", severity: .error, line: 3, column: 19,
                broken: "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-STREAM-INF:CODECS=\"avc1.4d401f\"\nv.m3u8\n",
                correct: "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\nv.m3u8\n"),
            RuleCase(
                rule: "HLS-tag-value", severity: .error, line: 3, column: 23,
                broken: media().replacingOccurrences(of: "TARGETDURATION:10", with: "TARGETDURATION:ten"), correct: media()),
            RuleCase(
                rule: "HLS-tag-repeated", severity: .error, line: 4, column: 1,
                broken: media("#EXT-X-TARGETDURATION:10"), correct: media()),
            RuleCase(
                rule: "HLS-removed-tag", severity: .info, line: 4, column: 1,
                broken: media("#EXT-X-ALLOW-CACHE:NO", version: 7), correct: media("#EXT-X-ALLOW-CACHE:NO", version: 6)),
            RuleCase(
                rule: "HLS-extinf-missing", severity: .error, line: 5, column: 1,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\nb.ts\n",
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXTINF:10,\nb.ts\n"),
            RuleCase(
                rule: "HLS-stream-inf-without-uri", severity: .error, line: 2, column: 1,
                broken: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000\n#EXT-X-STREAM-INF:BANDWIDTH=2560000\nhi.m3u8\n",
                correct: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000\nlo.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2560000\nhi.m3u8\n"),
            RuleCase(
                rule: "HLS-not-a-playlist", severity: .error, line: 1, column: 1,
                broken: "\u{0}\u{0}\u{0}\u{18}ftypmp42\u{0}\u{0}\u{0}\u{0}mp42isom\n",
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n"),
            RuleCase(
                rule: "HLS-extinf-without-uri", severity: .error, line: 3, column: 1,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n",
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n"),
            RuleCase(
                rule: "HLS-undefined-variable", severity: .error, line: 5, column: 1,
                broken: media(version: 8).replacingOccurrences(of: "a.ts", with: "{$base}/a.ts"),
                correct: media(#"#EXT-X-DEFINE:NAME="base",VALUE="v1""#, version: 8).replacingOccurrences(of: "a.ts", with: "{$base}/a.ts")),
            RuleCase(
                rule: "HLS-define-duplicate", severity: .error, line: 5, column: 1,
                broken: media(#"#EXT-X-DEFINE:NAME="x",VALUE="1""#, #"#EXT-X-DEFINE:NAME="x",VALUE="2""#, version: 8),
                correct: media(#"#EXT-X-DEFINE:NAME="x",VALUE="1""#, #"#EXT-X-DEFINE:NAME="y",VALUE="2""#, version: 8)),
            RuleCase(
                rule: "KEY-method-missing", severity: .error, line: 4, column: 12,
                broken: media(#"#EXT-X-KEY:URI="k""#), correct: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k""#)),
            RuleCase(
                rule: "KEY-uri-missing", severity: .error, line: 4, column: 12,
                broken: media("#EXT-X-KEY:METHOD=AES-128"), correct: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k""#)),
            RuleCase(
                rule: "KEY-iv-format", severity: .error, line: 4, column: 38,
                broken: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF00"#),
                correct: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF"#)),
            RuleCase(
                rule: "KEY-iv-forbidden", severity: .error, line: 4, column: 42,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF"#),
                correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k""#)),
            RuleCase(
                rule: "KEY-iv-short", severity: .info, line: 4, column: 38,
                broken: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF"#),
                correct: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x00000000000000000123456789ABCDEF"#)),
            RuleCase(
                rule: "HLS-mixed-playlist", severity: .error, line: 4, column: 1,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
                correct: master()),
            RuleCase(
                rule: "HLS-targetduration-missing", severity: .error, line: 1, column: 1,
                broken: "#EXTM3U\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n",
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"),
            RuleCase(
                rule: "HLS-extinf-over-target", severity: .error, line: 4, column: 9,
                broken: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.5,\na.ts\n",
                correct: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.499,\na.ts\n"),
            RuleCase(
                rule: "HLS-version-too-low", severity: .error, line: 4, column: 12,
                broken: media(fairPlayKey, version: 4), correct: media(fairPlayKey, version: 5)),
            RuleCase(
                rule: "HLS-segments-after-endlist", severity: .info, line: 6, column: 1,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\nb.ts\n",
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"),
            RuleCase(
                rule: "HLS-uri-space", severity: .error, line: 8, column: 5,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXTINF:10,\nb.ts\n#EXTINF:10,\nfile 3.ts\n#EXT-X-ENDLIST\n",
                correct:
                    "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXTINF:10,\nb.ts\n#EXTINF:10,\nfile%203.ts\n#EXT-X-ENDLIST\n"),
            // A key URI's space: the newcomer's cid=show s01.
            RuleCase(
                rule: "HLS-uri-space", severity: .error, line: 4, column: 46,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://title 1")),
                correct: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://title%201"))),
            RuleCase(
                rule: "HLS-nothing-to-play", severity: .info, line: 1, column: 1,
                broken: "#EXTM3U\n#EXT-X-VERSION:3\n", correct: master()),
            RuleCase(
                rule: "HLS-attribute-value", severity: .error, line: 3, column: 33,
                broken: master(#"#EXT-X-MEDIA:TYPE=AUDIO,DEFAULT=yes,GROUP-ID="a",NAME="en",URI="en.m3u8""#),
                correct: master(#"#EXT-X-MEDIA:TYPE=AUDIO,DEFAULT=YES,GROUP-ID="a",NAME="en",URI="en.m3u8""#)),
            RuleCase(
                rule: "HLS-sequence-tag-late", severity: .error, line: 6, column: 1,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXTINF:10,\n#EXT-X-MEDIA-SEQUENCE:1\nb.ts\n",
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:10,\na.ts\n#EXTINF:10,\nb.ts\n"),
            RuleCase(
                rule: "HLS-byterange-without-offset", severity: .error, line: 5, column: 1,
                broken: media("#EXTINF:10,", "#EXT-X-BYTERANGE:1000", "all.ts", version: 4),
                correct: media(
                    "#EXTINF:10,", "#EXT-X-BYTERANGE:1000@0", "all.ts", "#EXTINF:10,", "#EXT-X-BYTERANGE:1000", "all.ts", version: 4)),
            RuleCase(
                rule: "HLS-map-key-without-iv", severity: .error, line: 5, column: 1,
                broken: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k""#, #"#EXT-X-MAP:URI="init.mp4""#, version: 6),
                correct: media(
                    #"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123456789ABCDEF0123456789ABCDEF"#, #"#EXT-X-MAP:URI="init.mp4""#,
                    version: 6)),
            RuleCase(
                rule: "HLS-daterange", severity: .error, line: 5, column: 64,
                broken: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z",
                    #"#EXT-X-DATERANGE:ID="ad",START-DATE="2026-11-23T10:00:00.000Z",END-ON-NEXT=YES"#),
                correct: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z",
                    #"#EXT-X-DATERANGE:ID="ad",CLASS="ads",START-DATE="2026-11-23T10:00:00.000Z",END-ON-NEXT=YES"#)),
            RuleCase(
                rule: "HLS-daterange-overlap", severity: .error, line: 6, column: 1,
                broken: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z",
                    #"#EXT-X-DATERANGE:ID="a",CLASS="ad",START-DATE="2026-11-23T10:00:00.000Z",DURATION=60"#,
                    #"#EXT-X-DATERANGE:ID="b",CLASS="ad",START-DATE="2026-11-23T10:00:30.000Z",END-ON-NEXT=YES"#),
                correct: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z",
                    #"#EXT-X-DATERANGE:ID="a",CLASS="ad",START-DATE="2026-11-23T10:00:00.000Z",DURATION=30"#,
                    #"#EXT-X-DATERANGE:ID="b",CLASS="ad",START-DATE="2026-11-23T10:00:30.000Z",END-ON-NEXT=YES"#)),
            RuleCase(
                rule: "HLS-daterange-without-program-date-time", severity: .error, line: 4, column: 1,
                broken: media(#"#EXT-X-DATERANGE:ID="ad",START-DATE="2026-11-23T10:00:00.000Z",DURATION=30"#),
                correct: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z",
                    #"#EXT-X-DATERANGE:ID="ad",START-DATE="2026-11-23T10:00:00.000Z",DURATION=30"#)),
            RuleCase(
                rule: "HLS-media-attributes", severity: .error, line: 3, column: 59,
                broken: master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en",URI="cc.m3u8",INSTREAM-ID="CC1""#),
                correct: master(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en",INSTREAM-ID="CC1""#)),
            RuleCase(
                rule: "HLS-media-group", severity: .error, line: 4, column: 38,
                broken: master(
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="en.m3u8""#,
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="en2.m3u8""#),
                correct: master(
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="en.m3u8""#,
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English (AD)",URI="en2.m3u8""#)),
            RuleCase(
                rule: "HLS-group-missing", severity: .error, line: 3, column: 31,
                broken: "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"aac\"\nv.m3u8\n",
                correct: master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="en",URI="en.m3u8""#)),
            RuleCase(
                rule: "HLS-session-data", severity: .error, line: 3, column: 59,
                broken: master(#"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="T",URI="t.json""#),
                correct: master(#"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="T""#)),
            RuleCase(
                rule: "HLS-define-attributes", severity: .error, line: 4, column: 27,
                broken: media(#"#EXT-X-DEFINE:NAME="base",IMPORT="base""#, version: 8),
                correct: media(#"#EXT-X-DEFINE:NAME="base",VALUE="https://example.com/""#, version: 8)),
            RuleCase(
                rule: "HLS-server-control", severity: .error, line: 4, column: 23,
                broken: media("#EXT-X-SERVER-CONTROL:HOLD-BACK=20", version: 9),
                correct: media("#EXT-X-SERVER-CONTROL:HOLD-BACK=30", version: 9)),
            RuleCase(
                rule: "HLS-part-hold-back", severity: .warning, line: 5, column: 23,
                broken: media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=2.5", version: 9),
                correct: media("#EXT-X-PART-INF:PART-TARGET=1", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3", version: 9)),
            RuleCase(
                rule: "HLS-program-date-time-overlap", severity: .error, line: 7, column: 26,
                broken: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z\n#EXTINF:10,\na.ts\n"
                    + "#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:08.000Z\n#EXTINF:10,\nb.ts\n#EXT-X-ENDLIST\n",
                // A sub-second overlap is the draft's one exception (clock drift).
                correct: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z\n#EXTINF:10,\na.ts\n"
                    + "#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:09.600Z\n#EXTINF:10,\nb.ts\n#EXT-X-ENDLIST\n"),
            RuleCase(
                rule: "HLS-part-too-short", severity: .error, line: 7, column: 13,
                broken: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1.0\n"
                    + "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0\n"
                    + "#EXT-X-PART:DURATION=1.0,URI=\"a.0.mp4\"\n#EXT-X-PART:DURATION=0.5,URI=\"a.1.mp4\"\n"
                    + "#EXT-X-PART:DURATION=1.0,URI=\"a.2.mp4\"\n#EXTINF:2.5,\na.mp4\n",
                // Short parts the draft exempts: INDEPENDENT, before a GAP, the last of its parent.
                correct: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1.0\n"
                    + "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0\n"
                    + "#EXT-X-PART:DURATION=0.5,URI=\"a.0.mp4\",INDEPENDENT=YES\n#EXT-X-PART:DURATION=0.5,URI=\"a.1.mp4\"\n"
                    + "#EXT-X-PART:DURATION=1.0,URI=\"a.2.mp4\",GAP=YES\n#EXT-X-PART:DURATION=0.5,URI=\"a.3.mp4\"\n#EXTINF:2.5,\na.mp4\n"),
            RuleCase(
                rule: "HLS-daterange-precision", severity: .warning, line: 5, column: 25,
                broken: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z", #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-11-23T10:00:00Z""#),
                correct: media(
                    "#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z", #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-11-23T10:00:00.000Z""#)),
            RuleCase(
                rule: "HLS-version-too-high", severity: .warning, line: 2, column: 1,
                broken: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k""#, version: 5),
                correct: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k""#, version: 1)),
            RuleCase(
                rule: "HLS-program-date-time-precision", severity: .warning, line: 4, column: 26,
                broken: media("#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00Z"),
                correct: media("#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z")),
            RuleCase(
                rule: "HLS-codecs-missing", severity: .warning, line: 3, column: 1,
                broken: master(),
                correct: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS=\"avc1.640028,mp4a.40.2\"\nvideo.m3u8\n"),
            RuleCase(
                rule: "HLS-channels-missing", severity: .warning, line: 3, column: 1,
                broken: master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en.m3u8""#),
                correct: master(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",CHANNELS="2",URI="en.m3u8""#)),
            RuleCase(
                rule: "HLS-autoselect-alike", severity: .warning, line: 4, column: 1,
                broken: master(
                    #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="en.m3u8""#,
                    #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English 2",LANGUAGE="en",AUTOSELECT=YES,URI="en2.m3u8""#),
                correct: master(
                    #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="en.m3u8""#,
                    #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English (SDH)",LANGUAGE="en",AUTOSELECT=YES,CHARACTERISTICS="public.accessibility.describes-music-and-sound",URI="en2.m3u8""#
                )),
            RuleCase(
                rule: "HLS-steering-pathway", severity: .error, line: 3, column: 78,
                broken: master(#"#EXT-X-CONTENT-STEERING:SERVER-URI="https://s.example.com/m.json",PATHWAY-ID="CDN-B""#)
                    .replacingOccurrences(of: "BANDWIDTH=1000000", with: #"BANDWIDTH=1000000,PATHWAY-ID="CDN-A""#),
                correct: master(#"#EXT-X-CONTENT-STEERING:SERVER-URI="https://s.example.com/m.json",PATHWAY-ID="CDN-A""#)
                    .replacingOccurrences(of: "BANDWIDTH=1000000", with: #"BANDWIDTH=1000000,PATHWAY-ID="CDN-A""#)),
            RuleCase(
                rule: "HLS-vod-without-endlist", severity: .error, line: 4, column: 1,
                broken: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10,\na.ts\n",
                correct:
                    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"),
            RuleCase(
                rule: "HLS-start-offset", severity: .warning, line: 4, column: 1,
                broken: media("#EXT-X-START:TIME-OFFSET=25"), correct: media("#EXT-X-START:TIME-OFFSET=15")),
            RuleCase(
                rule: "HLS-not-nfc", severity: .error, line: 3, column: 52,
                broken: master("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"Franc\u{0327}ais\",URI=\"fr.m3u8\""),
                correct: master("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"Fran\u{00E7}ais\",URI=\"fr.m3u8\"")),
            RuleCase(
                rule: "HLS-low-latency", severity: .error, line: 4, column: 1,
                broken: media(#"#EXT-X-PART:DURATION=1.0,URI="p1.mp4""#, version: 9),
                correct: media(
                    "#EXT-X-PART-INF:PART-TARGET=1.0", "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3", #"#EXT-X-PART:DURATION=1.0,URI="p1.mp4""#,
                    version: 9)),
            // KEY
            RuleCase(
                rule: "KEY-method-unknown", severity: .error, line: 4, column: 19,
                broken: media(#"#EXT-X-KEY:METHOD=sample-aes,URI="k""#), correct: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k""#)),
            RuleCase(
                rule: "KEY-none-with-attributes", severity: .error, line: 4, column: 24,
                broken: media(#"#EXT-X-KEY:METHOD=NONE,URI="skd://x""#), correct: media("#EXT-X-KEY:METHOD=NONE")),
            RuleCase(
                rule: "KEY-keyformatversions-syntax", severity: .error, line: 4, column: 54,
                broken: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",KEYFORMATVERSIONS="1//2""#),
                correct: media(#"#EXT-X-KEY:METHOD=AES-128,URI="k",KEYFORMATVERSIONS="1/2""#)),
            RuleCase(
                rule: "KEY-method-mismatch", severity: .error, line: 7, column: 1,
                broken: media(fairPlayKey, #"#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="data:x",KEYFORMAT="urn:uuid:edef8ba9""#),
                correct: media(fairPlayKey, #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:x",KEYFORMAT="urn:uuid:edef8ba9""#)),
            RuleCase(
                rule: "KEY-session-none", severity: .error, line: 3, column: 27,
                broken: master("#EXT-X-SESSION-KEY:METHOD=NONE"),
                correct: master(fairPlayKey.replacingOccurrences(of: "EXT-X-KEY", with: "EXT-X-SESSION-KEY"))),
            RuleCase(
                rule: "KEY-session-in-media", severity: .error, line: 4, column: 1,
                broken: media(fairPlayKey.replacingOccurrences(of: "EXT-X-KEY", with: "EXT-X-SESSION-KEY")),
                correct: media(fairPlayKey)),
            RuleCase(
                rule: "KEY-session-duplicate", severity: .error, line: 4, column: 1,
                broken: master(
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery""#,
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#),
                correct: master(
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery""#,
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://b",KEYFORMAT="com.apple.streamingkeydelivery""#)),
            // FPS
            RuleCase(
                rule: "FPS-key-not-rotated", severity: .error, line: 8, column: 1,
                broken: rotated(fairPlayInSecondPeriod: false), correct: rotated(fairPlayInSecondPeriod: true)),
            // A title never given its FairPlay keys, checked with the template that should have given them.
            RuleCase(
                rule: "FPS-key-missing", severity: .error, line: 4, column: 1,
                broken: media(
                    #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\#(String(repeating: "A", count: 32)),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
                ),
                correct: media(
                    #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\#(String(repeating: "A", count: 32)),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#,
                    entitlementKey("skd://lic.example.com/fps?cid=42")), options: templateOptions),
            RuleCase(
                rule: "FPS-method", severity: .error, line: 4, column: 19,
                broken: media(fairPlayKey.replacingOccurrences(of: "SAMPLE-AES", with: "AES-128")), correct: media(fairPlayKey)),
            RuleCase(
                rule: "FPS-keyformat-missing", severity: .error, line: 4, column: 12,
                broken: media(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1""#), correct: media(fairPlayKey)),
            RuleCase(
                rule: "FPS-scheme", severity: .error, line: 4, column: 35,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://", with: "sdk://")), correct: media(fairPlayKey)),
            RuleCase(
                rule: "FPS-skd-without-slashes", severity: .warning, line: 4, column: 35,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://", with: "skd:")), correct: media(fairPlayKey)),
            RuleCase(
                rule: "FPS-uri-empty", severity: .error, line: 4, column: 35,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://")), correct: media(fairPlayKey)),
            RuleCase(
                rule: "FPS-uri-empty", severity: .error, line: 4, column: 35,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://lic.example.com/fps?cid=")),
                correct: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://lic.example.com/fps?cid=title-1"))),
            RuleCase(
                rule: "FPS-nested-scheme", severity: .error, line: 4, column: 35,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://https://lic.example.com/fps?cid=1")),
                correct: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://lic.example.com/fps?cid=1"))),
            RuleCase(
                rule: "FPS-placeholder-left", severity: .error, line: 4, column: 45,
                broken: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://lic/${content_id}")),
                correct: media(fairPlayKey.replacingOccurrences(of: "skd://title-1", with: "skd://lic/title-1"))),
            RuleCase(
                rule: "FPS-keyformatversions", severity: .error, line: 4, column: 112,
                broken: media(fairPlayKey.replacingOccurrences(of: #"KEYFORMATVERSIONS="1""#, with: #"KEYFORMATVERSIONS="2/3""#)),
                // A list that includes 1 offers FairPlay's version (rfc8216bis 4.4.4.4: a slash-separated list).
                correct: media(fairPlayKey.replacingOccurrences(of: #"KEYFORMATVERSIONS="1""#, with: #"KEYFORMATVERSIONS="1/2""#))),
            RuleCase(
                rule: "FPS-iv", severity: .info, line: 4, column: 93,
                broken: media(
                    fairPlayKey.replacingOccurrences(of: #",KEYFORMATVERSIONS="1""#, with: ",IV=0x0123456789abcdef0123456789abcdef")),
                correct: media(fairPlayKey)),
            RuleCase(
                rule: "FPS-uri-length", severity: .warning, line: 4, column: 35,
                broken: media(fairPlayKey.replacingOccurrences(of: "title-1", with: String(repeating: "t", count: 2049))),
                correct: media(fairPlayKey.replacingOccurrences(of: "title-1", with: String(repeating: "t", count: 2000)))),
            // TPL
            RuleCase(
                rule: "TPL-key-mismatch", severity: .error, line: 4, column: 35,
                broken: media(entitlementKey("skd://old-lic.example.com/fps?cid=42")),
                correct: media(entitlementKey("skd://lic.example.com/fps?cid=42")), options: templateOptions),
            // A key of the template's form that names another key period's KEYID (key rotation).
            RuleCase(
                rule: "TPL-key-mismatch", severity: .error, line: 9, column: 35,
                broken: rotated(fairPlayInSecondPeriod: true, uris: ["skd://" + String(repeating: "a", count: 32)]),
                correct: rotated(
                    fairPlayInSecondPeriod: true,
                    uris: ["skd://" + String(repeating: "a", count: 32), "skd://" + String(repeating: "b", count: 32)]),
                options: keyIDOptions),
            RuleCase(
                rule: "TPL-no-catalogue-row", severity: .warning, line: 4, column: 1,
                broken: media(entitlementKey("skd://lic.example.com/fps?cid=42")),
                correct: media(entitlementKey("skd://lic.example.com/fps?cid=42")), options: catalogueOptions(listing: "other.m3u8"),
                correctOptions: catalogueOptions(listing: "t.m3u8")),
            RuleCase(
                rule: "TPL-host-not-allowed", severity: .error, line: 4, column: 41,
                broken: media(entitlementKey("skd://lic.example.org/fps?cid=42")),
                correct: media(entitlementKey("skd://lic.example.com/fps?cid=42")), options: templateOptions),
        ] + KeyTruthFixtures.cases + SegmentRuleCases.cases

    @Test("a playlist that breaks the rule gets its finding, with severity and line:column", arguments: cases)
    func broken(_ rule: RuleCase) throws {
        let found = try findings(rule.broken, options: rule.options, path: rule.path).filter { $0.id == rule.rule }
        #expect(found.count == 1, "\(found)")
        let finding = try #require(found.first)
        #expect(finding.severity == rule.severity)
        #expect(finding.location.line == rule.line)
        #expect(finding.location.column == rule.column)
        #expect(!finding.message.isEmpty)
    }

    @Test("a correct playlist does not trigger the rule, nor any other error", arguments: cases)
    func correct(_ rule: RuleCase) throws {
        let found = try findings(rule.correct, options: rule.correctOptions ?? rule.options, path: rule.path)
        #expect(!found.contains { $0.id == rule.rule }, "\(found)")
        #expect(!found.contains { $0.severity == .error }, "\(found)")
    }

    @Test("every rule but the package ones has a case here, and every case names a rule of the registry")
    func everyRuleIsCovered() {
        // The package findings (PKG) are made while a directory is walked: the end-to-end suite covers them;
        // the key map's are judged over a title and a run, or a merge of shards (KeyMapRuleTests, KeyMapTests); an overlong line needs a megabyte: the
        // reader's own tests cover it; invalid UTF-8 cannot be a String.
        let ruleIDs = Set(RuleRegistry.validationKinds.map(\.id))
            .filter { !$0.rawValue.hasPrefix("PKG-") }
            .subtracting([
                "HLS-line-too-long", "HLS-invalid-utf8", "FPS-uri-two-keys", "FPS-key-two-uris", "FPS-key-map-unknown",
                "FPS-uri-two-titles", "FPS-uri-not-compared",
            ])
        #expect(Set(Self.cases.map(\.rule)) == ruleIDs)
    }
}
