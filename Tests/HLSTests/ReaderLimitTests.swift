import HLS
import Testing

/// The limits on a playlist's size and segment count: reading stops at the line that crosses one, with an
/// error placed on it, whether the lines came one by one or in runs, at any chunking of the input.
@Suite("Reader limits")
struct ReaderLimitTests {
    /// A media playlist with `segments` segments of 20 bytes each (`#EXTINF:6,\ns1NNN.ts\n`).
    static func media(segments: Int) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        for index in 0..<segments { text += "#EXTINF:6,\n" + "s\(1000 + index).ts\n" }
        return Array((text + "#EXT-X-ENDLIST\n").utf8)
    }

    static let header = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n".utf8.count

    static func options(
        size: Int = ReaderOptions.defaultMaximumPlaylistSize, segments: Int = ReaderOptions.defaultMaximumSegmentCount
    ) -> ReaderOptions {
        var options = ReaderOptions()
        options.maximumPlaylistSize = size
        options.maximumSegmentCount = segments
        return options
    }

    @Test("a playlist of exactly the size limit is read whole, without a finding", arguments: [Int.max, 7, 64])
    func exactlyAtSizeLimit(chunk: Int) throws {
        let bytes = Self.media(segments: 50)
        let result = try readItems(bytes, maximumRead: chunk, options: Self.options(size: bytes.count))
        #expect(result.output == bytes)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("one byte over: reading stops at the line that crosses the limit, located at the byte", arguments: [Int.max, 7, 64])
    func overSizeLimit(chunk: Int) throws {
        let bytes = Self.media(segments: 50)
        // The limit falls inside segment 31's URI line (line 2 + 2 * 31 + 1 = 65), at its third byte.
        let lineStart = Self.header + 30 * 20 + 11
        let limit = lineStart + 2
        let result = try readItems(bytes, maximumRead: chunk, options: Self.options(size: limit))
        #expect(result.output.count == lineStart, "the lines before the crossing one, and nothing else")
        #expect(bytes.starts(with: result.output))
        #expect(result.diagnostics.map(\.id.rawValue) == ["HLS-playlist-too-large"])
        let finding = try #require(result.diagnostics.first)
        #expect(finding.severity == .error)
        #expect(finding.location.line == 64)
        #expect(finding.location.column == 3)
        #expect(finding.location.offset == limit)
        #expect(finding.message.contains("\(limit) bytes"))
        #expect(result.reader.errorCount == 1)
    }

    @Test("the size limit inside an overlong line stops the reading there")
    func sizeLimitInOverlongLine() throws {
        var options = Self.options(size: 10_000)
        options.maximumLineLength = 100
        let bytes = Array(("#EXTM3U\n#" + String(repeating: "x", count: 50_000) + "\n").utf8)
        let result = try readItems(bytes, maximumRead: 333, options: options)
        #expect(result.diagnostics.map(\.id.rawValue) == ["HLS-line-too-long", "HLS-playlist-too-large"])
        #expect(result.output.count <= 10_000)
        let finding = try #require(result.diagnostics.last)
        #expect(finding.location.line == 2)
        #expect(finding.location.column == 10_000 - 8 + 1)
    }

    @Test("the segment limit: N segments are read, the URI of segment N+1 stops the reading", arguments: [Int.max, 5])
    func segmentLimit(chunk: Int) throws {
        let bytes = Self.media(segments: 40)
        let allowed = try readItems(bytes, maximumRead: chunk, options: Self.options(segments: 40))
        #expect(allowed.output == bytes)
        #expect(allowed.diagnostics.isEmpty)

        let result = try readItems(bytes, maximumRead: chunk, options: Self.options(segments: 25))
        #expect(result.diagnostics.map(\.id.rawValue) == ["HLS-too-many-segments"])
        let finding = try #require(result.diagnostics.first)
        #expect(finding.location.line == 2 + 2 * 26)
        #expect(finding.location.column == 1)
        #expect(finding.message.contains("segment 26"))
        #expect(result.reader.segmentCount == 25)
        // Everything up to the 26th segment's EXTINF, which is delivered; its URI is not.
        #expect(result.output.count == Self.header + 25 * 20 + 11)
        #expect(bytes.starts(with: result.output))
    }

    @Test("line by line, the same stops as by runs")
    func lineByLine() throws {
        let bytes = Self.media(segments: 40)
        let bySegments = try read(bytes, options: Self.options(segments: 25))
        #expect(bySegments.ids() == ["HLS-too-many-segments"])
        let bySize = try read(bytes, options: Self.options(size: 300))
        #expect(bySize.ids() == ["HLS-playlist-too-large"])
        #expect(bySize.output.count <= 300)
    }

    @Test("findings held back before the limit are still counted at the stop")
    func suppressedBeforeLimit() throws {
        var options = Self.options(segments: 3)
        options.maximumDiagnosticsPerKind = 1
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + (0..<5).map { "#EXTINF:6,\ns\t\($0).ts\n" }.joined()
        let result = try readItems(Array(text.utf8), options: options)
        #expect(result.diagnostics.map(\.id.rawValue) == ["HLS-tab-character", "HLS-too-many-segments", "HLS-tab-character"])
        // Segments 2, 3 and 4 (whose URI line is read before it is found one too many).
        #expect(result.diagnostics.last?.message.hasPrefix("3 more findings of HLS-tab-character") == true)
    }
}
