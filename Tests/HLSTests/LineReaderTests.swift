import HLS
import SKDTestSupport
import Testing

@Suite("Reading lines")
struct LineReaderTests {
    static let chunkings = [1, 2, 3, 7, 64, Int.max]

    @Test(
        "LF, CRLF, mixed, blank lines and a missing final newline come back byte for byte, read or borrowed",
        arguments: chunkings, [false, true])
    func roundTrip(maximumRead: Int, lending: Bool) throws {
        let inputs = [
            "#EXTM3U\n#EXT-X-VERSION:3\n\n#EXTINF:4,\na.ts\n",
            "#EXTM3U\r\n#EXTINF:4,\r\na.ts\r\n",
            "#EXTM3U\n#EXTINF:4,\r\na.ts\n\r\n",
            "#EXTM3U\n#EXT-X-ENDLIST",
            "#EXTM3U\r\n#EXT-X-ENDLIST\r",
            "\n\n\n",
            "#EXTM3U",
        ]
        for input in inputs {
            let result = try read(input, maximumRead: maximumRead, lending: lending)
            #expect(result.output == Array(input.utf8), "\(input.debugDescription) chunked by \(maximumRead)")
            #expect(result.terminators == (try read(input).terminators))
        }
    }

    @Test("each line keeps its own terminator")
    func terminators() throws {
        let result = try read("#EXTM3U\r\n#EXT-X-VERSION:3\n#EXT-X-ENDLIST")
        #expect(result.terminators == [.crlf, .lf, .none])
    }

    @Test(
        "a line longer than the limit is passed through in parts and reported once, read or borrowed",
        arguments: [1, 5, 4096, Int.max], [false, true])
    func overlongLine(maximumRead: Int, lending: Bool) throws {
        var options = ReaderOptions()
        options.maximumLineLength = 64
        let long = String(repeating: "a", count: 1000)
        let input = "#EXTM3U\n#EXTINF:4,\n\(long)\r\n#EXT-X-ENDLIST\n"
        let result = try read(input, maximumRead: maximumRead, options: options, lending: lending)
        #expect(result.output == Array(input.utf8))
        #expect(result.ids() == ["HLS-line-too-long"])
        #expect(result.first("HLS-line-too-long")?.location.line == 3)
        #expect(result.kinds == [.tag(.extM3U), .tag(.extInf), .uri, .tag(.endList)])
        #expect(result.reader.segmentCount == 1)
    }

    @Test("an overlong last line without a newline still ends, read or borrowed", arguments: [1, 100, Int.max], [false, true])
    func overlongLastLine(maximumRead: Int, lending: Bool) throws {
        var options = ReaderOptions()
        options.maximumLineLength = 32
        let input = "#EXTM3U\n#" + String(repeating: "c", count: 500) + "\r"
        let result = try read(input, maximumRead: maximumRead, options: options, lending: lending)
        #expect(result.output == Array(input.utf8))
        #expect(result.kinds == [.tag(.extM3U), .comment])
        #expect(result.terminators == [.lf, .none])
    }

    @Test("reading by runs matches reading by lines, whatever the chunking, read or borrowed", arguments: chunkings, [false, true])
    func runs(maximumRead: Int, lending: Bool) throws {
        let inputs = [
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXTINF:4.5,title\nb.ts\n\n# note\n#EXT-X-ENDLIST\n",
            "#EXTM3U\r\n#EXTINF:4,\r\na.ts\r\n#EXTINF:4,\r\nb.ts",
            "#EXTM3U\n#EXTINF:4,\n#EXTINF:4,\na.ts\nb.ts\n#EXTINF:x,\nc.ts\n#EXTINF:4,\t\nd.ts\n",
            "#EXTM3U\n#EXTINF:4,\n{$x}.ts\n#EXTINF:4,\n  \n e.ts\n#EXTINF:4,\nf\u{0}.ts\n#EXTINF:4,\nü.ts\n",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:4,\ns.ts\n",
            // In a playlist that mixes media and master tags, a variant without its URI line, then a segment
            // (found by the fuzzer: a run took the EXTINF, left the variant waiting, and gave it the
            // segment's URI).
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXTINF:4,\ns.ts\n#EXTINF:4,\nt.ts\n",
        ]
        for input in inputs {
            let byLine = try read(input, maximumRead: maximumRead)
            let byItem = try readItems(Array(input.utf8), maximumRead: maximumRead, lending: lending)
            #expect(byItem.output == Array(input.utf8))
            #expect(byItem.diagnostics == byLine.diagnostics, "\(input.debugDescription)")
            #expect(byItem.reader.segmentCount == byLine.reader.segmentCount)
            // A playlist of master and media tags is mixed, however its segments were read.
            #expect(byItem.reader.kind == byLine.reader.kind, "\(input.debugDescription)")
        }
    }

    /// The run scanner classifies 64 bytes at a time: a byte needing attention, a `{`, or a CR before its
    /// LF is found wherever it falls against those blocks, in the line it belongs to.
    @Test("runs agree with lines wherever a byte falls in the scanner's 64-byte blocks", arguments: ["\u{1}", "{$v}", "é", " ", "\t"])
    func blockBoundaries(odd: String) throws {
        let uri = String(repeating: "s", count: 70) + ".ts"
        for shift in 0..<64 {
            for position in [0, 1, 30, 62, 63, 64, uri.count] {
                var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#" + String(repeating: "p", count: shift) + "\n"
                for index in 0..<4 {
                    let line = index == 2 ? String(uri.prefix(position)) + odd + String(uri.dropFirst(position)) : uri
                    text += "#EXTINF:4,\n" + line + "\n"
                }
                let byLine = try read(text)
                let byItem = try readItems(Array(text.utf8), maximumRead: shift % 2 == 0 ? .max : 61)
                #expect(byItem.output == Array(text.utf8))
                #expect(byItem.diagnostics == byLine.diagnostics, "shift \(shift), \(odd.debugDescription) at \(position)")
                #expect(byItem.reader.segmentCount == 4)
            }
        }
    }

    @Test("CRLF lines come in runs wherever their CR falls against the blocks")
    func carriageReturnsAcrossBlocks() throws {
        for shift in 0..<64 {
            var text = "#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#" + String(repeating: "p", count: shift) + "\r\n"
            for index in 0..<40 { text += "#EXTINF:4.5,\r\nsegment-\(index).ts\r\n" }
            let byLine = try read(text)
            let byItem = try readItems(Array(text.utf8))
            #expect(byItem.output == Array(text.utf8))
            #expect(byItem.diagnostics == byLine.diagnostics)
            #expect(byItem.diagnostics.isEmpty)
            // A CR that ends a block while its LF starts the next sends that one line the slow way.
            #expect(byItem.linesInRuns >= 70, "shift \(shift): \(byItem.linesInRuns) lines in runs")
        }
    }

    /// A run tells an EXTINF's duration a word at a time when it and its comma fit in eight bytes: what it
    /// lets through must be what the line-by-line reader finds right, wherever the comma falls.
    @Test("EXTINF durations: runs and lines agree, short and long, right and wrong")
    func durations() throws {
        var values = ["4,", "6.000,", "10.010,", "1234567,", "12345678,", ".5,", "5.,", "6.0.0,", ",", "6", "6.000", "6.00000000,x"]
        var generator = SplitMix(seed: 0xD0_4A71_0E)
        let alphabet = Array("0123456789.,.,x -")
        for _ in 0..<3000 {
            values.append(String((0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for value in values {
            let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:\(value)title\na.ts\n#EXTINF:4,\nb.ts\n"
            let byLine = try read(text)
            let byItem = try readItems(Array(text.utf8))
            #expect(byItem.output == Array(text.utf8))
            #expect(byItem.diagnostics == byLine.diagnostics, "#EXTINF:\(value)")
            #expect(byItem.reader.segmentCount == byLine.reader.segmentCount, "#EXTINF:\(value)")
        }
        // The plain ones do come in runs, the duration and its comma inside the word or past it.
        for value in ["6.000,", "10.010,", "1234567,", "12345678,", "5.005333333,"] {
            let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n" + String(repeating: "#EXTINF:\(value)\nseg.ts\n", count: 10)
            #expect(try readItems(Array(text.utf8)).linesInRuns >= 19, "#EXTINF:\(value)")
        }
    }

    @Test("plain lines do come in runs")
    func runsAreUsed() throws {
        var input = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        for index in 0..<1000 { input += "#EXTINF:4.000,\nsegment-\(index).ts\n" }
        let result = try readItems(Array(input.utf8))
        #expect(result.linesInRuns >= 1990)
        #expect(result.reader.segmentCount == 1000)
    }

    @Test("a file larger than any buffer streams through")
    func largeInput() throws {
        var input = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        for index in 0..<50_000 { input += "#EXTINF:4.000,\nsegment-\(index).ts\n" }
        let result = try read(input)
        #expect(result.output == Array(input.utf8))
        #expect(result.diagnostics.isEmpty)
        #expect(result.reader.segmentCount == 50_000)
    }
}

@Suite("Hostile bytes")
struct HostileInputTests {
    @Test("a byte order mark is reported, skipped for parsing, and kept in the output")
    func byteOrderMark() throws {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8)
        let result = try read(input)
        #expect(result.output == input)
        #expect(result.ids() == ["HLS-byte-order-mark"])
        #expect(result.kinds.first == .tag(.extM3U))
    }

    @Test("NUL and other control characters are located")
    func controlCharacters() throws {
        let input: [UInt8] = Array("#EXTM3U\n#EXTINF:4,\nseg".utf8) + [0x00] + Array("ment.ts\n".utf8)
        let result = try read(input)
        #expect(result.output == input)
        let finding = try #require(result.first("HLS-control-character"))
        #expect(finding.location.line == 3)
        #expect(finding.location.column == 4)
        #expect(finding.message.contains("U+0000"))
    }

    @Test("a tab is an error of its own (4.1), an EXTINF title's included")
    func tab() throws {
        let result = try read("#EXTM3U\n#EXTINF:4,\ta\nsegment.ts\n")
        #expect(result.ids() == ["HLS-tab-character"])
        #expect(result.diagnostics.first?.severity == .error)
    }

    @Test(
        "tabs inside RECENTLY-REMOVED-DATERANGES, a tab-delimited list (rfc8216bis 4.4.5.2), are no finding; elsewhere on that line they are"
    )
    func tabDelimitedList() throws {
        let skip = "#EXTM3U\n#EXT-X-VERSION:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES=\"a\tb\tc\"\n"
        #expect(try read(skip).ids().isEmpty)
        let outside = skip.replacingOccurrences(of: "SKIPPED-SEGMENTS=3,", with: "SKIPPED-SEGMENTS=3,\t")
        #expect(try read(outside).ids().contains("HLS-tab-character"))
        let otherTag = "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"x\",VALUE=\"a\tb\"\n"
        #expect(try read(otherTag).ids() == ["HLS-tab-character"])
    }

    @Test("a stray tab is one finding, not also the attribute-list errors it causes")
    func tabKnockOns() throws {
        let result = try read("#EXTM3U\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES=foo\tbar\n")
        #expect(!result.ids().contains("HLS-attribute-whitespace"))
        #expect(!result.ids().contains("HLS-attribute-syntax"))
        #expect(result.ids().contains("HLS-tab-character"))
    }

    @Test("spaces around a URI line and a line of spaces are HLS-whitespace (4.1)", arguments: [" a.ts", "a.ts ", "   "])
    func surroundingSpaces(_ line: String) throws {
        let result = try read("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXTINF:4,\n\(line)\nb.ts\n")
        #expect(result.ids().contains("HLS-whitespace"))
    }

    @Test(
        "invalid UTF-8 is located, valid multi-byte text is not",
        arguments: [
            ([0xC3, 0x28], 4), ([0xE2, 0x82], 4), ([0xED, 0xA0, 0x80], 4), ([0xF8, 0x88, 0x80, 0x80, 0x80], 4),
            ([0xC0, 0xAF], 4), ([0x80], 4),
        ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], column: Int) throws {
        let input: [UInt8] = Array("#EXTM3U\n#EXTINF:4,\nseg".utf8) + bytes + Array(".ts\n".utf8)
        let result = try read(input)
        #expect(result.output == input)
        let finding = try #require(result.first("HLS-invalid-utf8"))
        #expect(finding.location.line == 3)
        #expect(finding.location.column == column)
    }

    @Test("UTF-8 text is fine")
    func validUTF8() throws {
        let result = try read("#EXTM3U\n#EXTINF:4,Ünïcødé 日本語 🎬\nsegment.ts\n")
        #expect(result.diagnostics.isEmpty)
    }

    @Test("C1 control characters are control characters")
    func c1Controls() throws {
        let result = try read("#EXTM3U\n#EXTINF:4,a\u{85}b\nsegment.ts\n")
        #expect(result.ids() == ["HLS-control-character"])
    }

    @Test("binary data gives bounded findings, never a crash")
    func binaryData() throws {
        var generator = SystemRandomNumberGenerator()
        let input = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let result = try read(input)
        #expect(result.output == input)
        // Binary from the first line: one finding says so; a first line that happens to look like text (a few
        // random bytes before a line feed) gets the findings of a bad playlist.
        if result.first("HLS-not-a-playlist") != nil {
            #expect(result.diagnostics.count == 1)
        } else {
            #expect(result.first("HLS-extm3u-first") != nil)
        }
        // At most 100 listed per kind, plus one line counting the rest.
        let perKind = Dictionary(grouping: result.diagnostics, by: \.id).mapValues(\.count)
        #expect(perKind.values.allSatisfy { $0 <= 101 })
    }

    @Test("an empty file is reported")
    func empty() throws {
        let result = try read([UInt8]())
        #expect(result.output.isEmpty)
        #expect(result.ids() == ["HLS-empty-playlist"])
    }

    @Test("an HTML error page saved as a playlist is not a playlist")
    func html() throws {
        let result = try read("<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n")
        #expect(result.first("HLS-extm3u-first")?.location.line == 1)
        #expect(result.reader.kind == .unknown)
    }
}
