import HLS
import Testing

@Suite("Reading playlists")
struct PlaylistReaderTests {
    static let multiDRM = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:6
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:6,
        clear-lead.m4s
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1"
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://one",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXTINF:6,
        s1.m4s
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://two",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXTINF:6,
        s2.m4s
        #EXT-X-ENDLIST

        """

    @Test("keys in force: one per KEYFORMAT, the latest wins, METHOD=NONE clears")
    func keysInForce() throws {
        let reader = PlaylistReader(source: MemorySource(Array(Self.multiDRM.utf8)), path: "v.m3u8")
        var keysPerSegment: [[String]] = []
        while let line = try reader.next() {
            if case .segment? = line.uriRole {
                keysPerSegment.append(reader.keysInForce.map { $0.key.uri ?? "" })
            }
        }
        #expect(keysPerSegment == [[], ["data:text/plain;base64,AAAA", "skd://one"], ["data:text/plain;base64,AAAA", "skd://two"]])
        #expect(reader.kind == .media)
        #expect(reader.errorCount == 0)
    }

    @Test("whether a KEYFORMAT is in force is read from the keys' formats, as a look at their attributes says")
    func keyFormatInForce() throws {
        // FairPlay in force, cleared by METHOD=NONE, back; a key without KEYFORMAT (identity), one whose
        // KEYFORMAT is not quoted, and one naming KEYFORMAT twice (the first is the one a lookup finds).
        let input =
            Self.multiDRM.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "")
                + """
                #EXT-X-KEY:METHOD=NONE
                #EXTINF:6,
                s3.m4s
                #EXT-X-KEY:METHOD=AES-128,URI="k.bin"
                #EXTINF:6,
                s4.m4s
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://three",KEYFORMAT=com.apple.streamingkeydelivery
                #EXTINF:6,
                s5.m4s
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://four",KEYFORMAT="identity",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXTINF:6,
                s6.m4s
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://five",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXTINF:6,
                s7.m4s

                """
        let reader = PlaylistReader(source: MemorySource(Array(input.utf8)), path: "v.m3u8")
        let fairPlay = "com.apple.streamingkeydelivery"
        var inForce: [Bool] = []
        var currentKeyFormats: [Bool?] = []
        while let line = try reader.next() {
            if line.kind == .tag(.key) {
                // The key just read, its attributes seen in place, against a copy of them.
                let copied = try #require(reader.currentAttributes)
                let current = reader.withCurrentAttributes { $0.attribute("KEYFORMAT", is: fairPlay, quoted: true) }
                #expect(current == copied.attribute("KEYFORMAT", is: fairPlay, quoted: true), "at \(line.text)")
                var uri: (span: AttributeSpan, text: String)?
                _ = reader.withCurrentAttributes { attributes in
                    uri = attributes["URI"].map { ($0.span, $0.text) }
                    return true
                }
                #expect(
                    uri?.span
                        == copied["URI"].map { AttributeSpan(nameRange: $0.nameRange, valueRange: $0.valueRange, isQuoted: $0.isQuoted) })
                #expect(uri?.text == copied["URI"]?.text)
                currentKeyFormats.append(current)
                // Told from the format the reader recorded, the same answer; none for METHOD=NONE, which puts
                // no key in force.
                let recorded = reader.currentKeyFormat(is: fairPlay)
                #expect(line.text.contains("METHOD=NONE") ? recorded == nil : recorded == current, "at \(line.text)")
            } else {
                #expect(reader.currentKeyFormat(is: fairPlay) == nil, "at \(line.text)")
            }
            guard case .segment? = line.uriRole else { continue }
            let byAttributes = reader.firstKeyInForce { $0.attribute("KEYFORMAT", is: fairPlay, quoted: true) } != nil
            #expect(reader.hasKeyInForce(format: fairPlay) == byAttributes, "at \(line.text)")
            inForce.append(reader.hasKeyInForce(format: fairPlay))
        }
        #expect(inForce == [false, true, true, false, false, false, false, true])
        #expect(currentKeyFormats == [false, false, true, true, false, false, false, false, true])
    }

    @Test("a master playlist's URI lines are variants, not segments")
    func master() throws {
        let input = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1000000
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000000
            high/index.m3u8

            """
        let reader = PlaylistReader(source: MemorySource(Array(input.utf8)), path: "m.m3u8")
        var roles: [URIRole] = []
        while let line = try reader.next() { if let role = line.uriRole { roles.append(role) } }
        #expect(roles == [.variant, .variant])
        #expect(reader.kind == .master)
        #expect(reader.errorCount == 0)
    }

    @Test("master and media tags together make a mixed playlist")
    func mixed() throws {
        let result = try read("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:4,\ns.ts\n")
        #expect(result.reader.kind == .mixed)
    }

    @Test(
        "structure findings",
        arguments: [
            ("#EXT-X-VERSION:3\n#EXTM3U\n", "HLS-extm3u-first", 1),
            ("#EXTM3U\n#EXTINF:4,\n#EXTINF:4,\na.ts\n", "HLS-extinf-without-uri", 2),
            ("#EXTM3U\n#EXTINF:4,\n", "HLS-extinf-without-uri", 2),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:4\na.ts\n", "HLS-extinf-missing", 3),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-TARGETDURATION:6\n", "HLS-tag-repeated", 3),
            ("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-ALLOW-CACHE:YES\n", "HLS-removed-tag", 3),
            ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n", "HLS-define-duplicate", 3),
            ("#EXTM3U\n#EXTINF:4,\n{$host}/a.ts\n", "HLS-undefined-variable", 3),
            ("#EXTM3U\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://{$id}\"\n", "HLS-undefined-variable", 2),
        ])
    func structure(input: String, id: String, line: Int) throws {
        let result = try read(input)
        let finding = try #require(result.first(id), "\(result.ids())")
        #expect(finding.location.line == line)
    }

    @Test("EXT-X-DEFINE values are substituted for reading; IMPORT and QUERYPARAM are recorded")
    func variables() throws {
        var options = ReaderOptions()
        options.importedVariables = ["token": "abc"]
        let input = """
            #EXTM3U
            #EXT-X-DEFINE:NAME="id",VALUE="title-42"
            #EXT-X-DEFINE:IMPORT="token"
            #EXT-X-DEFINE:QUERYPARAM="session"
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://{$id}?t={$token}&s={$session}",KEYFORMAT="com.apple.streamingkeydelivery"

            """
        let result = try read(input, options: options)
        #expect(result.diagnostics.isEmpty)
        let substitution = result.reader.variables.substitute("skd://{$id}?t={$token}&s={$session}&u={$nope}")
        #expect(substitution.text == "skd://title-42?t=abc&s={$session}&u={$nope}")
        #expect(substitution.unresolved == ["session"])
        #expect(substitution.undefined == ["nope"])
        #expect(result.reader.keysInForce.first?.key.uri == "skd://{$id}?t={$token}&s={$session}")
    }

    @Test("with parsesEveryTag off, only keys and definitions are checked; any tag parses on demand")
    func lazyParsing() throws {
        var options = ReaderOptions()
        options.parsesEveryTag = false
        let input = """
            #EXTM3U
            #EXT-X-TARGETDURATION:NaN
            #EXT-X-KEY:METHOD=AES-128
            #EXTINF:6,
            s.ts

            """
        let reader = PlaylistReader(source: MemorySource(Array(input.utf8)), path: "v.m3u8", options: options)
        var ids: [String] = []
        reader.onDiagnostic = { ids.append($0.id.rawValue) }
        var parsed: [TagName] = []
        while let line = try reader.next() {
            if case .tag = line.kind, let name = reader.currentTag?.name { parsed.append(name) }
        }
        #expect(ids == ["KEY-uri-missing"])
        #expect(parsed == [.extM3U, .targetDuration, .key, .extInf])
    }

    @Test("the inspection lists segments with their keys, and variants with their URIs")
    func inspection() throws {
        let reader = PlaylistReader(source: MemorySource(Array(Self.multiDRM.utf8)), path: "v.m3u8")
        let inspection = try PlaylistInspector.inspect(reader)
        #expect(inspection.kind == .media)
        #expect(inspection.segments.map(\.uri) == ["clear-lead.m4s", "s1.m4s", "s2.m4s"])
        #expect(inspection.segments.map(\.line) == [7, 11, 14])
        #expect(inspection.segments[2].keys.map(\.line) == [8, 12])
        #expect(inspection.segments.allSatisfy { $0.map == "init.mp4" && $0.duration == 6 })
        #expect(inspection.tags.count == 12)
        let key = try #require(inspection.tags.first { $0.line == 9 })
        #expect(key.attributes?.map(\.name) == ["METHOD", "URI", "KEYFORMAT", "KEYFORMATVERSIONS"])
        #expect(key.attributes?[1].value == .string("skd://one"))
        #expect(key.attributes?[1].type == "quoted-string")
    }
}
