import Foundation
import HLS
import SKDTestSupport
import Testing

@Suite("Corpus, in process", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipReason)))
struct CorpusRoundTripTests {
    @Test("the corpus is all there")
    func complete() {
        #expect(Corpus.entries.count == 150)
    }

    @Test("every playlist reads back byte for byte, in any chunking, without a crash", arguments: Corpus.entries)
    func roundTrip(entry: Corpus.Entry) throws {
        let bytes = [UInt8](try Data(contentsOf: entry.url))
        for maximumRead in [Int.max, 4093, 17] {
            let result = try read(bytes, path: entry.file, maximumRead: maximumRead)
            #expect(result.output == bytes, "chunked by \(maximumRead)")
        }
    }

    @Test("reading by runs gives the same bytes, findings and counts as reading line by line", arguments: Corpus.entries)
    func runsMatchLines(entry: Corpus.Entry) throws {
        let bytes = [UInt8](try Data(contentsOf: entry.url))
        for maximumRead in [Int.max, 4093, 17] {
            let byLine = try read(bytes, path: entry.file, maximumRead: maximumRead)
            let byItem = try readItems(bytes, path: entry.file, maximumRead: maximumRead)
            #expect(byItem.output == bytes)
            #expect(byItem.diagnostics == byLine.diagnostics)
            #expect(byItem.reader.segmentCount == byLine.reader.segmentCount)
            #expect(byItem.reader.lineCount == byLine.reader.lineCount)
            #expect(byItem.reader.kind == byLine.reader.kind)
        }
    }

    @Test("the tag of a line the reader checked is the tag the parser makes of it (the reader's spans reused)", arguments: Corpus.entries)
    func checkedTagsAreParsedTags(entry: Corpus.Entry) throws {
        let bytes = [UInt8](try Data(contentsOf: entry.url))
        var options = ReaderOptions()
        options.parsesEveryTag = true
        let reader = PlaylistReader(source: MemorySource(bytes, maximumRead: 4093), path: entry.file, options: options)
        while let line = try reader.next() {
            guard case .tag = line.kind, line.raw.part == .whole, let tag = reader.currentTag else { continue }
            let parsed = TagParser.parse(line.content).tag
            #expect(tag == parsed, "\(entry.file):\(line.raw.number)")
        }
    }

    @Test("every diagnostic points into the file", arguments: Corpus.entries)
    func locations(entry: Corpus.Entry) throws {
        let bytes = [UInt8](try Data(contentsOf: entry.url))
        let result = try read(bytes, path: entry.file)
        let lineCount = result.kinds.count
        for diagnostic in result.diagnostics {
            #expect(diagnostic.location.path == entry.file)
            #expect((1...max(lineCount, 1)).contains(diagnostic.location.line), "\(diagnostic)")
            #expect(diagnostic.location.column >= 1)
            #expect(diagnostic.location.offset <= bytes.count)
        }
    }
}
