import Foundation
import SKDTestSupport
import Testing

/// One FairPlay URI per key, as a property of the built `skdpack` over generated libraries whose true
/// keys are known (``KeyMapLibrary``: rotation or none, a key per track or one, KEYIDs or none, clear
/// leads, old URIs, placeholders, insertions) and every value source a user writes: after `apply`, each
/// title is either as it was or maps each URI to one key and each key to one URI, no two titles share a
/// URI, and `validate` says of every title what its true keys say, wherever KEYIDs let it tell.
@Suite("The key map, over generated libraries and every value source")
struct KeyMapPropertyTests {
    static let server = "https://lic.example.com/fps"
    static let oldForm = #"skd://old\.example\.com/(?<content_id>[^/]+)/"#

    struct Job: CustomStringConvertible, Sendable {
        var description: String
        var arguments: @Sendable (KeyMapLibrary) throws -> [String]
    }

    static let jobs: [Job] = [
        Job(description: "content-id, --var") { _ in ["--template", "content-id", "--var", "content_id=one-for-all"] },
        Job(description: "entitlement, --catalog") { ["--template", "entitlement", "--catalog", try $0.writeCatalog(server: server)] },
        Job(description: "entitlement-rotation, --catalog") {
            ["--template", "entitlement-rotation", "--catalog", try $0.writeCatalog(server: server)]
        },
        Job(description: "key-id") { _ in ["--template", "key-id"] },
        Job(description: "content-id, --path-pattern") { _ in
            ["--template", "content-id", "--path-pattern", "(?<content_id>title-[0-9]+-[0-9]+)/"]
        },
        Job(description: "skd://{content_id}, --match") { _ in ["--template", "skd://{content_id}", "--match", oldForm] },
        Job(description: "entitlement-rotation, --match") { _ in
            ["--template", "entitlement-rotation", "--var", "entitlement_url=\(server)", "--match", oldForm]
        },
        Job(description: "inline, {kid} and {key_index}, --catalog") {
            ["--template", "skd://keys.example.com/{content_id}/{kid}?i={key_index}", "--catalog", try $0.writeCatalog(server: server)]
        },
    ]

    @Test("after apply every title is as it was or one-to-one, no URI is shared by titles, and validate agrees", arguments: jobs, 0..<12)
    func oneURIPerKey(_ job: Job, seed: Int) throws {
        let library = try KeyMapLibrary(seed: UInt64(seed))
        defer { library.remove() }
        let before = try library.titles.map { try library.snapshot(of: $0) }
        let run = try SKDPackRunner.run(["apply"] + (try job.arguments(library)) + ["--in-place", "--no-progress", library.path()])
        #expect(run.status <= 2, "\(job) seed \(seed): \(run.stderr)")
        var owners: [String: String] = [:]
        for (index, title) in library.titles.enumerated() {
            let uses = try library.uses(of: title)
            let written = try library.snapshot(of: title) != before[index]
            let keysByURI = Dictionary(grouping: uses, by: \.uri).mapValues { Set($0.map(\.key)) }
            let urisByKey = Dictionary(grouping: uses, by: \.key).mapValues { Set($0.map(\.uri)) }
            let oneToOne = keysByURI.values.allSatisfy { $0.count == 1 } && urisByKey.values.allSatisfy { $0.count == 1 }
            // Written, a title is one-to-one; left as it was, it is, or apply said why.
            #expect(oneToOne || (!written && run.stderr.contains("/\(title.folder)/")), "\(job) seed \(seed) \(title.folder): \(uses)")
            guard written else { continue }
            for use in uses {
                let owner = owners[use.uri, default: title.folder]
                #expect(owner == title.folder, "\(job) seed \(seed): \(use.uri) given to \(owner) and \(title.folder)")
                owners[use.uri] = owner
            }
        }
        // validate says of each title what its true keys say, where KEYIDs tell them.
        let validate = try SKDPackRunner.run(["validate", "--format", "json", "--no-progress", library.path()])
        let report = try #require(try JSONSerialization.jsonObject(with: validate.stdout) as? [String: Any], "\(validate.stderr)")
        let playlists = report["playlists"] as? [[String: Any]] ?? []
        for title in library.titles where title.hasKeyIDs {
            let uses = try library.uses(of: title)
            let broken =
                Dictionary(grouping: uses, by: \.uri).values.contains { Set($0.map(\.key)).count > 1 }
                || Dictionary(grouping: uses, by: \.key).values.contains { Set($0.map(\.uri)).count > 1 }
            let said = playlists.filter { ($0["path"] as? String ?? "").contains("/\(title.folder)/") }.contains { playlist in
                (playlist["diagnostics"] as? [[String: Any]] ?? []).contains {
                    ["FPS-uri-two-keys", "FPS-key-two-uris"].contains($0["rule"] as? String ?? "")
                }
            }
            #expect(said == broken, "\(job) seed \(seed) \(title.folder): validate said \(said), the true keys \(broken): \(uses)")
        }
    }
}
