import Foundation
import HLS
import SKDTestSupport
import Testing

/// Large playlists are read by a thread of their own, whose chunks the line reader borrows with the line
/// cut by each chunk's edge copied in front (``ReadAheadSource``). What comes out must be what the same
/// bytes give read from memory, wherever the edges fall.
@Suite("Reading ahead")
struct ReadAheadTests {
    @Test("a large file read ahead gives the lines, runs and findings of the same bytes read from memory")
    func sameAsFromMemory() throws {
        let result = try Self.readAheadAndFromMemory(Self.playlist(segments: 60_000, longURILength: 700_000))
        #expect(result.carryCapacity > 0, "its chunks are lent")
        #expect(result.ahead.segments == 60_002)
    }

    @Test("lines longer than the limit are passed on in parts across chunk edges, as from memory")
    func overlongAcrossChunks() throws {
        var options = ReaderOptions()
        options.maximumLineLength = 100_000
        let result = try Self.readAheadAndFromMemory(Self.playlist(segments: 70_000, longURILength: 400_000), options: options)
        #expect(result.ahead.findings.contains { $0.contains("longer than 100000 bytes") })
    }

    @Test("a line limit above the room kept for a carry reads by copying, with the same result")
    func limitAboveCarryRoom() throws {
        var options = ReaderOptions()
        options.maximumLineLength = 4 << 20
        let result = try Self.readAheadAndFromMemory(Self.playlist(segments: 60_000, longURILength: 1_500_000), options: options)
        #expect(result.carryCapacity < options.maximumLineLength)
    }

    /// Writes `bytes` to a file large enough to be read ahead, reads it so and from memory, and expects the
    /// bytes back unchanged and the same lines and findings both ways. Returns the reading ahead, and the
    /// room its source kept for a carry.
    static func readAheadAndFromMemory(
        _ bytes: [UInt8], options: ReaderOptions = ReaderOptions()
    ) throws -> (ahead: Reading, carryCapacity: Int) {
        try withFile(bytes) { path in
            let source = try FileDescriptorSource.openForStreaming(path: path)
            #expect(source.readsAhead, "a file over \(FileDescriptorSource.readAheadThreshold) bytes is read ahead")
            let carryCapacity = source.carryCapacity
            FileDescriptorSource.finish(source)
            let ahead = try read(path: path, options: options)
            let memory = try read(path: path, fromMemory: bytes, options: options)
            let same = ahead.output.elementsEqual(bytes)
            #expect(same, "the bytes written back are the bytes read")
            #expect(firstDifference(ahead.lines, memory.lines) == nil)
            #expect(firstDifference(ahead.findings, memory.findings) == nil)
            return (ahead, carryCapacity)
        }
    }

    /// A media playlist of `segments` segments, CRLF and LF lines mixed, keys every 500 segments, and one
    /// segment URI of `longURILength` bytes in the middle, so that it spans chunk edges.
    static func playlist(segments: Int, longURILength: Int) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n"
        for index in 0..<segments {
            if index % 500 == 0 {
                text +=
                    "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://key-\(index)\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"\r\n"
            }
            let terminator = index % 7 == 0 ? "\r\n" : "\n"
            text += "#EXTINF:6.000,\(terminator)segment-\(index).ts\(terminator)"
            if index == segments / 2 {
                text += "#EXTINF:6.000,\n" + String(repeating: "a", count: longURILength) + ".ts\n"
            }
        }
        text += "#EXTINF:6.000,\nlast.ts\n#EXT-X-ENDLIST"
        return Array(text.utf8)
    }

    /// Where two long lists first differ, said briefly (a failed `==` on 60,000 lines would have the test
    /// library compute their whole difference).
    static func firstDifference(_ read: [String], _ expected: [String]) -> String? {
        if let index = zip(read, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "item \(index): \(read[index]) where \(expected[index]) was expected"
        }
        return read.count == expected.count ? nil : "\(read.count) items where \(expected.count) were expected"
    }

    static func withFile<Result>(_ bytes: [UInt8], _ body: (String) throws -> Result) throws -> Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-readahead-\(UUID().uuidString).m3u8").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Reads the playlist at `path` (or `bytes`, from memory) twice: by items as `skdpack cat` does, for
    /// the bytes written back, the findings as text and the segments counted; and line by line, for each
    /// line's number, input offset, length and terminator. (Which lines come in runs, and in how many
    /// parts an overlong line comes, depend on where chunks end.)
    typealias Reading = (output: [UInt8], lines: [String], findings: [String], segments: Int)

    static func read(path: String, fromMemory bytes: [UInt8]? = nil, options: ReaderOptions = ReaderOptions()) throws -> Reading {
        func open() throws -> any ByteSource {
            if let bytes { return MemorySource(bytes) }
            return try FileDescriptorSource.openForStreaming(path: path)
        }
        let itemSource = try open()
        defer { FileDescriptorSource.finish(itemSource) }
        let reader = PlaylistReader(source: itemSource, path: path, options: options)
        var findings: [String] = []
        reader.onDiagnostic = { findings.append("\($0)") }
        var output: [UInt8] = []
        while let item = try reader.nextItem() {
            switch item {
            case .run(let run): output += run.bytes
            case .line(let line): output += line.raw.bytes
            }
        }
        let lineSource = try open()
        defer { FileDescriptorSource.finish(lineSource) }
        let lineReader = PlaylistReader(source: lineSource, path: path, options: options)
        var lines: [String] = []
        // An overlong line comes in parts as the chunks fall: counted whole.
        var partial: (offset: Int, length: Int)?
        while let line = try lineReader.next() {
            let offset = partial?.offset ?? line.raw.offset
            let length = (partial?.length ?? 0) + line.raw.content.count
            guard line.raw.part.endsLine else {
                partial = (offset, length)
                continue
            }
            partial = nil
            lines.append("\(line.raw.number):\(offset):\(length):\(line.raw.terminator)")
        }
        return (output, lines, findings, reader.segmentCount)
    }
}
