import FoundationEssentials
import HLS
import SKDPack

/// `validate --format json`: the findings per playlist, keys sorted, so that two runs over the same input
/// give the same bytes. (The full report model of DESIGN.md "Reports", shared with `apply`, replaces this
/// shape when it lands; `schemaVersion` says which shape a consumer holds.)
enum ValidationJSON {
    static let schemaVersion = "0.1"

    struct Document: Encodable {
        var schemaVersion = ValidationJSON.schemaVersion
        var tool = Tool()
        var summary: Summary
        var playlists: [Playlist]
    }

    struct Tool: Encodable {
        var name = "skdpack"
        var version = SKDPackVersion.current
    }

    struct Summary: Encodable {
        var playlists: Int
        var errors: Int
        var warnings: Int
        var infos: Int
    }

    struct Playlist: Encodable {
        var path: String
        var kind: String
        var diagnostics: [Finding]
    }

    struct Finding: Encodable {
        var rule: String
        var severity: String
        var line: Int
        var column: Int
        var message: String
    }

    static func encode(_ results: [PlaylistValidation]) throws -> [UInt8] {
        let all = results.flatMap(\.diagnostics)
        func count(_ severity: Severity) -> Int { all.count { $0.severity == severity } }
        let document = Document(
            summary: Summary(
                playlists: results.count, errors: count(.error), warnings: count(.warning), infos: count(.info)),
            playlists: results.map { result in
                Playlist(
                    path: result.path, kind: result.kind.rawValue,
                    diagnostics: result.diagnostics.map {
                        Finding(
                            rule: $0.id.rawValue, severity: $0.severity.rawValue, line: $0.location.line,
                            column: $0.location.column, message: $0.message)
                    })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(document)) + Array("\n".utf8)
    }
}
