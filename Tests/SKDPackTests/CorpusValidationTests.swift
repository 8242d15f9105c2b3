import HLS
import SKDPack
import SKDTestSupport
import Testing

/// No false alarms: the well-formed playlists of the corpus (notes without NEGATIVE) get no error from an
/// HLS rule, except the ones named here, each a real breach of the rule in the file as published.
@Suite("validate over the corpus", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipReason)))
struct CorpusValidationTests {
    /// file → the HLS rules it breaks, and why the rule is right.
    static let exceptions: [String: (rules: Set<DiagnosticID>, why: String)] = {
        let beforeHeader = "comment or blank lines before #EXTM3U; RFC 8216 4.3.1.1 wants it first"
        let partRange = "EXT-X-PART BYTERANGE=20000@0 unquoted; rfc8216bis 4.4.4.9 defines it as a quoted-string"
        var table: [String: (rules: Set<DiagnosticID>, why: String)] = [:]
        for file in [
            "kuu__hls-parser__test_fixtures_m3u8_8.10-EXT-X-DATERANGE-carrying-SCTE-35-tags.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.6-Master-Playlist-with-Alternative-audio.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.7-Master-Playlist-with-Alternative-video.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_8.9-CHARACTERISTICS-attribute-containing-multiple-characteristics.m3u8",
            "kuu__hls-parser__test_fixtures_m3u8_SCTE-35_07.m3u8",
            "grafov__m3u8__sample-playlists_master-with-hlsv7.m3u8",
            "grafov__m3u8__sample-playlists_media-playlist-with-discontinuity.m3u8",
        ] { table[file] = (["HLS-extm3u-first"], beforeHeader) }
        table["kuu__hls-parser__test_fixtures_m3u8_8.8-Session-Data-in-a-Master-Playlist.m3u8"] = (
            ["HLS-extm3u-first", "HLS-nothing-to-play"],
            beforeHeader + "; an excerpt of the RFC's example holding only EXT-X-SESSION-DATA, so nothing to play"
        )
        for part in 1...3 {
            table["kuu__hls-parser__test_fixtures_m3u8_Low-Latency_Example-03_Byterange-addressed_Parts-0\(part).m3u8"] =
                (["HLS-attribute-type"], partRange)
        }
        table["videojs__m3u8-parser__test_fixtures_integration_llhls-byte-range.m3u8"] = (
            ["HLS-attribute-type", "HLS-tag-value", "HLS-version-too-low"],
            partRange + "; EXT-X-BYTERANGE:587500@ has an empty offset; BYTERANGE at EXT-X-VERSION:3 (section 7 wants 4)"
        )
        table["videojs__m3u8-parser__test_fixtures_integration_llhlsDelta.m3u8"] = (
            ["HLS-attribute-type", "HLS-attribute-whitespace", "HLS-attribute-syntax"],
            "a tab inside the unquoted RECENTLY-REMOVED-DATERANGES value (RFC 8216 4.2: no whitespace, and it is a quoted-string)"
        )
        table["videojs__m3u8-parser__test_fixtures_integration_master.m3u8"] = (
            ["HLS-extm3u-first", "HLS-attribute-whitespace"], beforeHeader + "; a space in an attribute list (4.2)"
        )
        table["videojs__m3u8-parser__test_fixtures_integration_multipleAudioGroups.m3u8"] = (
            ["HLS-attribute-whitespace"], "spaces after commas in attribute lists (RFC 8216 4.2 allows none)"
        )
        table["Comcast__mamba__mambaTests_Fixtures_bipbopall.m3u8"] = (
            ["HLS-attribute-whitespace"], "spaces after commas in attribute lists (RFC 8216 4.2 allows none)"
        )
        table["Comcast__mamba__mambaTests_Fixtures_hls_master_playlist_sap.m3u8"] = (
            ["HLS-stream-inf-without-uri"],
            "each variant's URI written as a URI attribute of EXT-X-STREAM-INF, which has none; 4.3.4.2 wants a URI line after it"
        )
        table["grafov__m3u8__sample-playlists_master-with-i-frame-stream-inf.m3u8"] = (
            ["HLS-attribute-type"], "RESOLUTION=\"1x1\" quoted, where 4.2 defines a bare decimal-resolution"
        )
        table["Eyevinn__hls-vodtolive__testvectors_hls_cmaf_interstitial_1_test-video=2500000.m3u8"] = (
            ["HLS-extinf-over-target", "HLS-attribute-whitespace"],
            "10 s segments under EXT-X-TARGETDURATION:3 (4.3.3.1), and a space in an attribute list (4.2)"
        )
        let version = "features newer than the declared EXT-X-VERSION (section 7; EXT-X-DEFINE needs 8, rfc8216bis)"
        for file in [
            "Comcast__mamba__mambaTests_Fixtures_hls_sampleMediaFile.txt.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L675.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L783.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2700.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2788.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L2882.m3u8",
            "video-dev__hls.js__tests_unit_loader_m3u8-parser.ts__L3008.m3u8",
        ] { table[file] = (["HLS-version-too-low"], version) }
        return table
    }()

    static let wellFormed = Corpus.entries.filter { !$0.isNegative }

    @Test("well-formed playlists get no HLS error beyond the named exceptions", arguments: wellFormed)
    func noFalseAlarms(_ entry: Corpus.Entry) throws {
        let result = try PlaylistValidator.validate(FileDescriptorSource.open(path: entry.url.path), path: entry.file)
        let errors = Set(result.diagnostics.filter { $0.severity == .error && $0.id.family == "HLS" }.map(\.id))
        let expected = Self.exceptions[entry.file]?.rules ?? []
        #expect(errors == expected, "\(result.diagnostics.filter { $0.severity == .error && $0.id.family == "HLS" })")
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
