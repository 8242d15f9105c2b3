import FoundationEssentials
import SKDReportModel

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
        // The entry at its depth in the document: in `playlists`, in the top-level object.
        var writer = JSONEntryWriter()
        writer.playlist(playlist, depth: 2)
        count += 1
        return (count == 1 ? Array("    ".utf8) : Array(",\n    ".utf8)) + writer.bytes
    }

    public func finish(run: Report.Run, summary: Report.Summary) throws -> [UInt8] {
        let tail = try encoder.encode(
            Tail(run: run, schemaVersion: Report.currentSchemaVersion, summary: summary, tool: tool))
        // `{\n  "run" : …\n}`: its members continue the document after the playlists.
        return Array("\n  ],\n".utf8) + tail.dropFirst(2) + [0x0A]
    }
}
