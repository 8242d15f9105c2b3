import Glibc
import HLS
import SKDFiles
import SKDKeys
import SKDPack
import SKDTestSupport
import SKDValidation
import Testing

/// No false alarms: the well-formed playlists of the corpus (notes without NEGATIVE) get no error from an
/// HLS rule, except the ones named here, each a real breach in the file as published, given with the
/// sentence of RFC 8216 (or rfc8216bis) it breaks.
@Suite("validate over the corpus", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipReason)))
struct CorpusValidationTests {
    /// file → the HLS rules it breaks, and the sentence each breaks.
    static let exceptions: [String: (rules: Set<DiagnosticID>, why: String)] = {
        let beforeHeader =
            "4.3.1.1 EXTM3U: \"It MUST be the first line of every Media Playlist and every Master Playlist.\" (a comment or blank line comes first)"
        let partRange = "bis 4.4.4.9 EXT-X-PART BYTERANGE: \"The value is a quoted-string\" (written unquoted, 20000@0)"
        let tab =
            "4.1: \"Playlist files MUST NOT contain UTF-8 control characters (U+0000 to U+001F and U+007F to U+009F), with the exceptions of CR (U+000D) and LF (U+000A).\" (a tab in an EXTINF title)"
        let spaces =
            "4.2: \"There MUST NOT be any whitespace between the AttributeName and the '=' character, nor between the '=' character and the AttributeValue\" and 4.1 \"Whitespace MUST NOT be present, except for elements in which it is explicitly specified\" (spaces after commas)"
        let version =
            "7 / bis 8: \"It MUST appear in all Playlists containing tags or attributes that are not compatible with protocol version 1\"; each feature needs the version that brought it (EXT-X-DEFINE 8, IV 2, KEYFORMAT 5, …)"
        let skipVersion =
            "bis 8: \"A Playlist MUST indicate an EXT-X-VERSION of 10 or higher if it contains an EXT-X-SKIP tag that replaces EXT-X-DATERANGE tags in a Playlist Delta Update\" (RECENTLY-REMOVED-DATERANGES at version 9)"
        let partInf = "bis 4.4.3.7: EXT-X-PART-INF \"is REQUIRED if a Playlist contains one or more EXT-X-PART tags\""
        let audioGroup =
            "4.3.4.2 AUDIO: \"It MUST match the value of the GROUP-ID attribute of an EXT-X-MEDIA tag elsewhere in the Master Playlist whose TYPE attribute is AUDIO.\""
        var table: [String: (rules: Set<DiagnosticID>, why: String)] = [:]
        for file in [
            "kuu__hls-parser__test_fixtures_m3u8_8.10-EXT-X-DATERANGE-carrying-SCTE-35-tags.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.6-Master-Playlist-with-Alternative-audio.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.7-Master-Playlist-with-Alternative-video.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.8-Session-Data-in-a-Master-Playlist.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.9-CHARACTERISTICS-attribute-containing-multiple-characteristics.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_SCTE-35_07.m3u8",
            "grafov__m3u8__sample-playlists_master-with-hlsv7.m3u8",
            "grafov__m3u8__sample-playlists_media-playlist-with-discontinuity.m3u8",
        ] { table[file] = (["HLS-extm3u-first"], beforeHeader) }
        let partHoldBack =
            "bis 4.4.3.8 PART-HOLD-BACK: \"Its value MUST be at least twice the Part Target Duration\" (1.02 with PART-TARGET=1.02)"
        let skipBoundary = "bis 4.4.3.8 CAN-SKIP-UNTIL: \"The Skip Boundary MUST be at least six times the Target Duration\""
        for part in 1...3 {
            table["kuu__hls-parser__test_fixtures_m3u8_Low-Latency_Example-03_Byterange-addressed_Parts-0\(part).m3u8"] =
                (["HLS-attribute-type", "HLS-server-control"], partRange + "; " + partHoldBack)
        }
        table["videojs__m3u8-parser__test_fixtures_integration_llhls.m3u8"] = (
            ["HLS-server-control"], skipBoundary + " (12 with EXT-X-TARGETDURATION:4)"
        )
        table["videojs__m3u8-parser__test_fixtures_integration_llhls-byte-range.m3u8"] = (
            [
                "HLS-attribute-type", "HLS-tag-value", "HLS-version-too-low", "HLS-byterange-without-offset", "HLS-low-latency",
                "HLS-attribute-value",
            ],
            partRange
                + "; 4.3.2.2 \"EXT-X-BYTERANGE:<n>[@<o>]\" (587500@ has an empty offset); 7 EXT-X-BYTERANGE needs version 4 (it has 3); "
                + "4.3.2.2 \"If o is not present, a previous Media Segment MUST appear in the Playlist file and MUST be a sub-range of the same media resource\" "
                + "(713084 on hls_450k_video2.ts after a range of hls_450k_video.ts); " + partInf
                + "; bis 4.4.5.3 EXT-X-PRELOAD-HINT TYPE: \"valid strings are PART and MAP\" (TYPE=FOO)"
        )
        table["videojs__m3u8-parser__test_fixtures_integration_llhlsDelta.m3u8"] = (
            ["HLS-attribute-type", "HLS-tab-character", "HLS-version-too-low", "HLS-server-control"],
            "bis 4.4.5.2 RECENTLY-REMOVED-DATERANGES: \"a quoted-string consisting of a tab-delimited list\" (written unquoted: foo<tab>bar, so the tab is outside a quoted value); "
                + skipVersion + "; " + skipBoundary + " (12 with EXT-X-TARGETDURATION:4)"
        )
        table["video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L1898.m3u8"] = (["HLS-version-too-low"], skipVersion)
        table["videojs__m3u8-parser__test_fixtures_integration_master.m3u8"] = (
            ["HLS-extm3u-first", "HLS-attribute-whitespace"], beforeHeader + "; " + spaces
        )
        table["videojs__m3u8-parser__test_fixtures_integration_multipleAudioGroups.m3u8"] = (["HLS-attribute-whitespace"], spaces)
        table["Comcast__mamba__mambaTests_Fixtures_bipbopall.m3u8"] = (["HLS-attribute-whitespace"], spaces)
        table["Comcast__mamba__mambaTests_Fixtures_hls_master_playlist_sap.m3u8"] = (
            ["HLS-stream-inf-without-uri"],
            "4.3.4.2: \"The URI line is REQUIRED.\" (each variant's URI is written as a URI attribute of EXT-X-STREAM-INF instead)"
        )
        table["grafov__m3u8__sample-playlists_master-with-i-frame-stream-inf.m3u8"] = (
            ["HLS-attribute-type", "HLS-group-missing"],
            "4.2: RESOLUTION is a decimal-resolution, \"two decimal-integers separated by the \"x\" character\" (written quoted, \"1x1\"); "
                + "4.3.4.2 VIDEO: \"It MUST match the value of the GROUP-ID attribute of an EXT-X-MEDIA tag elsewhere in the Master Playlist whose TYPE attribute is VIDEO\" (VIDEO=\"1\" with no such group)"
        )
        table["Eyevinn__hls-vodtolive__testvectors_hls_cmaf_interstitial_1_test-video=2500000.m3u8"] = (
            ["HLS-extinf-over-target", "HLS-attribute-whitespace"],
            "4.3.3.1: \"The EXTINF duration of each Media Segment in the Playlist file, when rounded to the nearest integer, MUST be less than or equal to the target duration\" (10 s under EXT-X-TARGETDURATION:3); "
                + spaces
        )
        table["Eyevinn__hls-splice__testvectors_demux_ad6_master.m3u8"] = (
            ["HLS-group-missing"], audioGroup + " (AUDIO=\"mono\", no EXT-X-MEDIA)"
        )
        table["Eyevinn__hls-splice__testvectors_hls2_cue_index_0_v.m3u8"] = (
            ["HLS-daterange-without-program-date-time"],
            "4.3.2.7: \"If a Playlist contains an EXT-X-DATERANGE tag, it MUST also contain at least one EXT-X-PROGRAM-DATE-TIME tag.\""
        )
        table["grafov__m3u8__test-playlists_molotov-master.m3u8"] = (
            ["HLS-group-missing"],
            "4.3.4.2 CLOSED-CAPTIONS: \"If the value is the enumerated-string value NONE, all EXT-X-STREAM-INF tags MUST have this attribute with a value of NONE\" (the audio-only variant has none)"
        )
        table["videojs__m3u8-parser__test_fixtures_integration_diff-init-key.m3u8"] = (
            ["HLS-map-key-without-iv"],
            "4.3.2.5: \"If the Media Initialization Section declared by an EXT-X-MAP tag is encrypted with a METHOD of AES-128, the IV attribute of the EXT-X-KEY tag that applies to the EXT-X-MAP is REQUIRED.\""
        )
        table["videojs__m3u8-parser__test_fixtures_integration_whiteSpace.m3u8"] = (
            ["HLS-whitespace", "HLS-tab-character"],
            "4.1: \"Whitespace MUST NOT be present, except for elements in which it is explicitly specified.\" (spaces around URI lines, a line of spaces); "
                + tab
        )
        for file in [
            "Eyevinn__hls-vodtolive__testvectors_hls_fairplay_ts_video_index.m3u8",
            "videojs__m3u8-parser__test_fixtures_integration_fmp4.m3u8",
        ] { table[file] = (["HLS-tab-character"], tab) }
        // hls.js's own methods: rfc8216bis 4.4.4.4 defines NONE, AES-128, SAMPLE-AES, SAMPLE-AES-CTR and AES-256-GCM only.
        table["video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L783.m3u8"] = (
            ["HLS-version-too-low", "KEY-method-unknown"],
            version + "; METHOD=AES-256 and AES-256-CTR are hls.js's, not methods rfc8216bis 4.4.4.4 defines"
        )
        for file in [
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2700.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L3008.m3u8",
        ] { table[file] = (["HLS-version-too-low"], version) }
        table["video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2882.m3u8"] = (
            ["HLS-version-too-low", "HLS-low-latency", "HLS-server-control"],
            version + "; " + partInf + "; " + skipBoundary + " (24 with EXT-X-TARGETDURATION:5)"
        )
        // A VOD playlist holds the final segment and cannot change: it MUST end with EXT-X-ENDLIST.
        let vodEndList =
            "rfc8216bis 4.4.3.5 and 6.2.1: a VOD playlist cannot change, so it holds the final segment, whose playlist MUST contain EXT-X-ENDLIST"
        table["video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2054.m3u8"] = (["HLS-vod-without-endlist"], vodEndList)
        table["videojs__m3u8-parser__test_fixtures_integration_llhls-byte-range.m3u8"]?.rules.insert("HLS-vod-without-endlist")
        table["videojs__m3u8-parser__test_fixtures_integration_llhls-byte-range.m3u8"]?.why += "; " + vodEndList
        // Keys: the RFC's rule, and FairPlay's (Apple's documents, not the RFC, say what FairPlay accepts).
        // ("{$v1}/2" lists version 1 among others: a list that offers FairPlay's version is not an error.)
        table["video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2788.m3u8"] = (
            ["HLS-version-too-low", "HLS-steering-pathway"],
            version + "; rfc8216bis 4.4.6.6: EXT-X-CONTENT-STEERING's PATHWAY-ID MUST be one a variant stream has, and none has one"
        )
        let fairPlayMethod = "FairPlay (Apple): a FairPlay key is METHOD=SAMPLE-AES (cbcs); FairPlay does not decrypt"
        table["video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L675.m3u8"] = (
            ["HLS-version-too-low", "FPS-method"], version + "; " + fairPlayMethod + " AES-128 segments"
        )
        for stream in 0...1 {
            table["shaka-project__shaka-packager__packager_app_test_testdata_encryption-with-multi-drms_stream_\(stream).m3u8"] = (
                ["FPS-method"], fairPlayMethod + " SAMPLE-AES-CTR (cenc) media"
            )
        }
        table["Comcast__mamba__mambaTests_Fixtures_hls_sampleMediaFile.txt.m3u8"] = (
            ["HLS-version-too-low", "FPS-scheme"],
            version
                + "; FairPlay (Apple): a FairPlay key's URI is skd:, the scheme the app's resource loader is asked for (an https: URI here)"
        )
        for track in ["audio", "video"] {
            table["Eyevinn__hls-vodtolive__testvectors_hls_wv_fairplay_\(track)_index.m3u8"] = (
                ["KEY-method-mismatch"],
                "4.3.2.4: \"A Media Playlist MAY contain multiple EXT-X-KEY tags with different KEYFORMAT attributes applying to the same Media Segment if they ultimately produce the same decryption key\" (SAMPLE-AES for FairPlay and SAMPLE-AES-CTR for Widevine on the same segments cannot)"
            )
        }
        return table
    }()

    static let wellFormed = Corpus.entries.filter { !$0.isNegative }

    @Test("well-formed playlists get no error beyond the named exceptions", arguments: wellFormed)
    func noFalseAlarms(_ entry: Corpus.Entry) throws {
        let result = try PlaylistValidator.validate(FileDescriptorSource.open(path: entry.url.path), path: entry.file)
        let errors = result.diagnostics.filter { $0.severity == .error }
        let expected = Self.exceptions[entry.file]?.rules ?? []
        #expect(Set(errors.map(\.id)) == expected, "\(errors)")
    }

    /// Validated as a directory, the corpus is a package per master: a master's media playlists are looked
    /// for beside it, and the corpus keeps none of them (each file is a playlist on its own).
    @Test("the corpus as one directory: the only further errors are masters' playlists that really are not there")
    func asADirectory() throws {
        let packages = PlaylistDiscovery().discover([try #require(Corpus.directory).path]).packages
        let runner = ValidationRunner(options: ValidationOptions())
        let wellFormed = Set(Self.wellFormed.map(\.file))
        var missing = 0
        for package in packages {
            for playlist in runner.run(package).playlists {
                let file = String(playlist.path.split(separator: "/").last ?? "")
                guard wellFormed.contains(file) else { continue }
                let errors = playlist.diagnostics.filter { $0.severity == .error }
                let own = Self.exceptions[file]?.rules ?? []
                for error in errors where !own.contains(error.id) {
                    // skdpack's package rule: a title on disk carries the playlists its master names.
                    #expect(error.id == "PKG-missing-playlist", "\(file): \(error)")
                    // Where it was looked for, said when that is not the reference as written.
                    let path =
                        error.message.contains("(looked for ")
                        ? try #require(error.message.split(separator: "(looked for ").last?.dropLast())
                        : try #require(error.message.split(separator: " does not exist").first)
                    #expect(access(String(path), F_OK) != 0, "\(path) exists")
                    missing += 1
                }
            }
        }
        #expect(missing > 0)
    }

    @Test("every exception names a playlist of the corpus")
    func exceptionsExist() {
        let files = Set(Self.wellFormed.map(\.file))
        for file in Self.exceptions.keys { #expect(files.contains(file), "\(file)") }
    }

    @Test("every playlist broken on purpose (NEGATIVE) gets at least one finding")
    func readsEverything() throws {
        for entry in Corpus.entries {
            let result = try PlaylistValidator.validate(FileDescriptorSource.open(path: entry.url.path), path: entry.file)
            if entry.isNegative { #expect(!result.diagnostics.isEmpty, "\(entry.file): \(entry.note)") }
        }
    }
}
