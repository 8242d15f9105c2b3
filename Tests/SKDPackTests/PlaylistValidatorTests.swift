import HLS
import SKDPack
import SKDValidation
import Testing

@Suite("playlist validator")
struct PlaylistValidatorTests {
    @Test("rules judge values after {$variable} substitution, and place findings on such a line at column 1")
    func substitutedValues() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:NAME="fps",VALUE="com.apple.streamingkeydelivery"
            #EXT-X-DEFINE:NAME="v",VALUE="2"
            #EXT-X-TARGETDURATION:10
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://t",KEYFORMAT="{$fps}",KEYFORMATVERSIONS="{$v}"
            #EXTINF:10,
            a.ts

            """
        let found = try findings(text)
        #expect(!found.contains { $0.id == "FPS-keyformat-missing" })
        let versions = try #require(found.first { $0.id == "FPS-keyformatversions" })
        #expect((versions.location.line, versions.location.column) == (6, 1))
        #expect(versions.message.contains("\"2\""))
    }

    @Test(
        "an EXTINF too long for any integer is a finding, not a trap (found by the apply fuzz target)",
        arguments: [
            "5200000000000000000000", "18446744073709551616", "1" + String(repeating: "0", count: 400),
        ])
    func hugeDuration(_ duration: String) throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:9\n#EXTINF:\(duration),\na.ts\n#EXT-X-ENDLIST\n"
        let finding = try #require(try findings(text).first { $0.id == "HLS-extinf-over-target" })
        #expect(finding.location.line == 3)
        #expect(finding.message.contains("no EXT-X-TARGETDURATION can be that long"))
    }

    @Test("CLOSED-CAPTIONS=NONE on some variants only: said at the variant without it, naming one with it")
    func captionsNoneOnSome() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.640028",RESOLUTION=640x360,CLOSED-CAPTIONS=NONE
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,CODECS="avc1.640028",RESOLUTION=1280x720
            b.m3u8

            """
        let finding = try #require(try findings(text).first { $0.id == "HLS-group-missing" })
        #expect((finding.location.line, finding.location.column) == (4, 1))
        #expect(
            finding.message.hasPrefix("this variant does not say CLOSED-CAPTIONS=NONE, and the one of line 2 does"), "\(finding.message)")
    }

    @Test("findings come in line order, reader and rules together")
    func lineOrder() throws {
        let text = "#EXTM3U\n#EXT-X-KEY:METHOD=NONE,IV=0x12\n#EXTINF:10,\na.ts\n"
        let found = try findings(text)
        let places = found.map { [$0.location.line, $0.location.column] }
        #expect(places == places.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(Set(found.map(\.id)).isSuperset(of: ["HLS-targetduration-missing", "KEY-iv-short", "KEY-none-with-attributes"]))
    }

    @Test("a disabled rule makes no finding; warnings can count as errors")
    func options() throws {
        let text =
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n"
            + #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd:t",KEYFORMAT="com.apple.streamingkeydelivery""# + "\n#EXTINF:10,\na.ts\n"
        #expect(try findings(text).map(\.id) == ["FPS-skd-without-slashes"])
        #expect(try findings(text).map(\.severity) == [.warning])

        var strict = ValidationOptions()
        strict.warningsAsErrors = true
        #expect(try findings(text, options: strict).map(\.severity) == [.error])

        var quiet = ValidationOptions()
        quiet.disabledRules = ["FPS-skd-without-slashes"]
        #expect(try findings(text, options: quiet).isEmpty)
    }

    @Test("a rule broken on every segment is listed up to the limit, then counted")
    func findingsPerRuleAreCapped() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n"
        for index in 0..<500 { text += "#EXTINF:4.0,\n\(index).ts\n" }
        var options = ValidationOptions()
        options.reader.maximumDiagnosticsPerKind = 10
        let found = try findings(text, options: options).filter { $0.id == "HLS-extinf-over-target" }
        #expect(found.count == 11)
        #expect(found.last?.message == "490 more findings of HLS-extinf-over-target in this playlist are not listed")
    }

    @Test("the catalogue lists every id once, each with a summary and a spec section")
    func catalogue() {
        let ids = FindingKinds.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(FindingKinds.kind("FPS-method")?.severity == .error)
        #expect(FindingKinds.kind("FPS-nope") == nil)
        #expect(ids == ids.sorted())
        for kind in FindingKinds.all {
            #expect(!kind.summary.isEmpty && !kind.specSection.isEmpty, "\(kind.id)")
            #expect(["HLS", "KEY", "FPS", "TPL", "PKG", "MEDIA", "CPIX", "SEG"].contains(String(kind.id.family)), "\(kind.id)")
        }
    }
}
