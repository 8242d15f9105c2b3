import HLS
import Testing

@Suite("Typed tags (RFC 8216 4.3, rfc8216bis)")
struct TagParserTests {
    @Test("every tag name is recognised", arguments: TagName.allCases)
    func recognised(name: TagName) {
        let bytes = Array(name.rawValue.utf8)
        #expect(bytes.withUnsafeBytes { TagName(bytes: $0) } == name)
    }

    @Test("every tag name has its definition", arguments: TagName.allCases)
    func defined(name: TagName) {
        #expect(TagDefinition.of(name).name == name)
    }

    @Test("unknown and misspelt tags are not")
    func unknown() {
        for text in ["EXT-X-KEYS", "EXT-X-CUE-OUT", "ext-x-key", "EXTINF2", ""] {
            #expect(Array(text.utf8).withUnsafeBytes { TagName(bytes: $0) } == nil)
        }
    }

    @Test(
        "tags with simple values",
        arguments: [
            ("#EXTM3U", TagValue.none),
            ("#EXT-X-VERSION:7", .decimalInteger(7)),
            ("#EXTINF:6.006,", .segmentDuration(duration: 6.006, title: "")),
            ("#EXTINF:10,Title, with comma", .segmentDuration(duration: 10, title: "Title, with comma")),
            ("#EXT-X-BYTERANGE:75232@0", .byteRange(length: 75232, offset: 0)),
            ("#EXT-X-BYTERANGE:82112", .byteRange(length: 82112, offset: nil)),
            ("#EXT-X-DISCONTINUITY", .none),
            ("#EXT-X-PROGRAM-DATE-TIME:2010-02-19T14:54:23.031+08:00", .dateTime("2010-02-19T14:54:23.031+08:00")),
            ("#EXT-X-GAP", .none),
            ("#EXT-X-BITRATE:1500", .decimalInteger(1500)),
            ("#EXT-X-TARGETDURATION:10", .decimalInteger(10)),
            ("#EXT-X-MEDIA-SEQUENCE:2680", .decimalInteger(2680)),
            ("#EXT-X-DISCONTINUITY-SEQUENCE:3", .decimalInteger(3)),
            ("#EXT-X-ENDLIST", .none),
            ("#EXT-X-PLAYLIST-TYPE:VOD", .enumerated("VOD")),
            ("#EXT-X-I-FRAMES-ONLY", .none),
            ("#EXT-X-INDEPENDENT-SEGMENTS", .none),
        ])
    func simpleValues(line: String, expected: TagValue) {
        let result = parseTag(line)
        #expect(result.issues.isEmpty)
        #expect(result.tag.value == expected)
        #expect(result.tag.name != nil)
    }

    /// One line per attribute-list tag, with the typed value of one of its attributes.
    @Test(
        "tags with attribute lists",
        arguments: [
            (
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
                "KEYFORMAT", TypedAttributeValue.quotedString("com.apple.streamingkeydelivery")
            ),
            (#"#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0""#, "BYTERANGE", .quotedString("720@0")),
            (#"#EXT-X-PART:DURATION=0.33334,URI="part1.mp4",INDEPENDENT=YES"#, "DURATION", .decimalFloatingPoint(0.33334)),
            (
                #"#EXT-X-DATERANGE:ID="ad1",START-DATE="2026-01-01T00:00:00Z",PLANNED-DURATION=30,SCTE35-OUT=0xFC30"#,
                "SCTE35-OUT", .hexadecimalSequence("FC30")
            ),
            ("#EXT-X-PART-INF:PART-TARGET=0.33334", "PART-TARGET", .decimalFloatingPoint(0.33334)),
            ("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0", "CAN-BLOCK-RELOAD", .enumeratedString("YES")),
            ("#EXT-X-SKIP:SKIPPED-SEGMENTS=3", "SKIPPED-SEGMENTS", .decimalInteger(3)),
            (#"#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p.mp4",BYTERANGE-START=100"#, "BYTERANGE-START", .decimalInteger(100)),
            (#"#EXT-X-RENDITION-REPORT:URI="../1M/w.m3u8",LAST-MSN=273,LAST-PART=2"#, "LAST-MSN", .decimalInteger(273)),
            (
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="en.m3u8",CHANNELS="2""#,
                "CHANNELS", .quotedString("2")
            ),
            (
                #"#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=640x360,CLOSED-CAPTIONS=NONE"#,
                "CLOSED-CAPTIONS", .enumeratedString("NONE")
            ),
            (#"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="iframe.m3u8""#, "URI", .quotedString("iframe.m3u8")),
            (#"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title""#, "VALUE", .quotedString("Title")),
            (
                #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://s",KEYFORMAT="com.apple.streamingkeydelivery""#,
                "METHOD", .enumeratedString("SAMPLE-AES")
            ),
            (#"#EXT-X-CONTENT-STEERING:SERVER-URI="/steer",PATHWAY-ID="CDN-A""#, "PATHWAY-ID", .quotedString("CDN-A")),
            ("#EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES", "TIME-OFFSET", .signedDecimalFloatingPoint(-12.5)),
            (#"#EXT-X-DEFINE:NAME="host",VALUE="cdn.example.com""#, "VALUE", .quotedString("cdn.example.com")),
        ])
    func attributeTags(line: String, attribute: String, expected: TypedAttributeValue) throws {
        let result = parseTag(line)
        #expect(result.issues.isEmpty, "\(result.issues)")
        let typed = result.tag.typedAttributes.first { $0.attribute.name == attribute }
        #expect(typed?.value == expected)
    }

    @Test("client attributes are kept untyped")
    func clientAttributes() {
        let tag = parseTag(#"#EXT-X-DATERANGE:ID="i",START-DATE="2026-01-01T00:00:00Z",X-COM-EXAMPLE-AD-ID="XYZ123""#).tag
        let typed = tag.typedAttributes.first { $0.attribute.name == "X-COM-EXAMPLE-AD-ID" }
        #expect(typed?.value == .unspecified("XYZ123", quoted: true))
    }

    @Test(
        "bad values are located findings",
        arguments: [
            ("#EXT-X-TARGETDURATION:NaN", "HLS-tag-value", 23),
            ("#EXT-X-TARGETDURATION:-10", "HLS-tag-value", 23),
            ("#EXT-X-VERSION:", "HLS-tag-value", 16),
            ("#EXTINF:abc,", "HLS-tag-value", 9),
            ("#EXTINF:10", "HLS-tag-value", 11),
            ("#EXT-X-BYTERANGE:100@", "HLS-tag-value", 18),
            ("#EXT-X-PLAYLIST-TYPE:LIVE", "HLS-tag-value", 22),
            ("#EXT-X-PROGRAM-DATE-TIME:yesterday", "HLS-tag-value", 26),
            ("#EXT-X-ENDLIST:YES", "HLS-tag-value", 16),
            ("#EXT-X-STREAM-INF:RESOLUTION=1x1", "HLS-attribute-missing", 19),
            (#"#EXT-X-STREAM-INF:BANDWIDTH="1""#, "HLS-attribute-type", 29),
            (#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=a,NAME="x""#, "HLS-attribute-type", 34),
            (#"#EXT-X-KEY:URI="k""#, "KEY-method-missing", 12),
            ("#EXT-X-KEY:METHOD=AES-128", "KEY-uri-missing", 12),
            (#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0123"#, "KEY-iv-short", 38),
            (#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090a0b0c0d0e0f00"#, "KEY-iv-format", 38),
            (#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0g"#, "KEY-iv-format", 38),
            (#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV="0x00""#, "KEY-iv-format", 38),
        ])
    func badValues(line: String, id: String, column: Int) throws {
        let issue = try #require(parseTag(line).issues.first)
        #expect(issue.kind.id.rawValue == id)
        #expect(issue.column == column)
    }

    @Test("a {$variable} in a typed value is not a type error")
    func variableReference() {
        #expect(parseTag(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://{$id}",IV={$iv}"#).issues.isEmpty)
    }

    @Test("unknown tags keep their text")
    func unknownTag() {
        let tag = parseTag("#EXT-X-CUE-OUT:DURATION=30").tag
        #expect(tag.name == nil)
        #expect(tag.spelledName == "EXT-X-CUE-OUT")
        #expect(tag.value == .text("DURATION=30"))
    }

    @Test("the key view reads FairPlay, Widevine and clear keys")
    func keyView() throws {
        let fairPlay = try #require(
            KeyTag(
                parseTag(
                    #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://id",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                ).tag))
        #expect(fairPlay.method == "SAMPLE-AES")
        #expect(fairPlay.uri == "skd://id")
        #expect(fairPlay.keyFormat == "com.apple.streamingkeydelivery")
        #expect(fairPlay.keyFormatVersions == "1")
        #expect(!fairPlay.isSessionKey)
        let aes = try #require(KeyTag(parseTag(#"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090A0B0C0D0E0F"#).tag))
        #expect(aes.keyFormat == "identity")
        #expect(!aes.hasExplicitKeyFormat)
        #expect(aes.iv == "000102030405060708090A0B0C0D0E0F")
        let clear = try #require(KeyTag(parseTag("#EXT-X-KEY:METHOD=NONE").tag))
        #expect(clear.isClear)
        let session = try #require(KeyTag(parseTag(#"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://s""#).tag))
        #expect(session.isSessionKey)
        #expect(KeyTag(parseTag("#EXT-X-MAP:URI=\"i\"").tag) == nil)
    }

    @Test("the variant, rendition and map views")
    func masterViews() throws {
        let variant = try #require(
            VariantStreamTag(
                parseTag(
                    #"#EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.97,AUDIO="aac""#
                ).tag))
        #expect(variant.bandwidth == 2_000_000)
        #expect(variant.averageBandwidth == 1_800_000)
        #expect(variant.codecs == "avc1.64001f,mp4a.40.2")
        #expect(variant.resolution == "1280x720")
        #expect(variant.frameRate == 29.97)
        #expect(variant.audio == "aac")
        let iFrame = try #require(VariantStreamTag(parseTag(#"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="i.m3u8""#).tag))
        #expect(iFrame.isIFrameOnly)
        #expect(iFrame.uri == "i.m3u8")
        let rendition = try #require(
            RenditionTag(
                parseTag(
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="en/a.m3u8""#
                ).tag))
        #expect(rendition.type == "AUDIO")
        #expect(rendition.groupID == "aac")
        #expect(rendition.language == "en")
        #expect(rendition.isDefault && rendition.autoselect)
        #expect(rendition.uri == "en/a.m3u8")
        let map = try #require(MapTag(parseTag(#"#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0""#).tag))
        #expect(map.uri == "init.mp4")
        #expect(map.byteRange == "720@0")
    }

    /// Found by the `tags` fuzz target: parse was given a line that is not a tag.
    @Test("a line that is not a tag is an unknown tag holding the line, not a crash", arguments: ["", ":", "x:y", "EXT-X-KEY:METHOD=NONE"])
    func notATag(_ line: String) {
        let parsed = parseTag(line)
        #expect(parsed.tag.name == nil)
        #expect(parsed.tag.value == (line.isEmpty ? .text("") : .text(line)))
    }
}
