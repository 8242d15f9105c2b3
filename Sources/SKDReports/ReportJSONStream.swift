import FoundationEssentials
import SKDPack

/// The JSON report written piece by piece. With keys sorted, `playlists` comes first in the document, so
/// the playlists can be written as they come and `run`, `schemaVersion`, `summary` and `tool` at the end;
/// the result reads as ``ReportJSON/encode(_:)``'s does.
public final class ReportJSONStream: ReportStream {
    private let tool: Report.Tool
    private var count = 0
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The members after `playlists`, in key order.
    private struct Tail: Encodable {
        var run: Report.Run
        var schemaVersion: String
        var summary: Report.Summary
        var tool: Report.Tool
    }

    public init(tool: Report.Tool) {
        self.tool = tool
    }

    public func start() throws -> [UInt8] {
        Array("{\n  \"playlists\" : [\n".utf8)
    }

    public func add(_ playlist: Report.Playlist) throws -> [UInt8] {
        // The entry alone, indented to its depth in the document (two levels of two spaces).
        let entry = Array(try encoder.encode(playlist))
        var bytes: [UInt8] = count == 0 ? [] : Array(",\n".utf8)
        bytes.reserveCapacity(entry.count + entry.count / 8)
        bytes += [0x20, 0x20, 0x20, 0x20]
        for (index, byte) in entry.enumerated() {
            bytes.append(byte)
            // Lines left empty stay empty, as the encoder leaves them (inside an empty array).
            if byte == 0x0A, index + 1 < entry.count, entry[index + 1] != 0x0A { bytes += [0x20, 0x20, 0x20, 0x20] }
        }
        count += 1
        return bytes
    }

    public func finish(run: Report.Run, summary: Report.Summary) throws -> [UInt8] {
        let tail = try encoder.encode(
            Tail(run: run, schemaVersion: Report.currentSchemaVersion, summary: summary, tool: tool))
        // `{\n  "run" : …\n}`: its members continue the document after the playlists.
        return Array("\n  ],\n".utf8) + tail.dropFirst(2) + [0x0A]
    }
}
