import Foundation
import SKDFiles
import SKDKeys
import SKDPack
import SKDTemplate
import SKDTestSupport
import Testing

@Suite("apply over the corpus", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipReason)))
struct CorpusApplyTests {
    /// Lines apply may write: FairPlay keys and session keys, and EXT-X-VERSION.
    static func isApplyLine(_ line: Substring) -> Bool {
        line.hasPrefix("#EXT-X-VERSION:")
            || ((line.hasPrefix("#EXT-X-KEY:") || line.hasPrefix("#EXT-X-SESSION-KEY:"))
                && line.contains("KEYFORMAT=\"com.apple.streamingkeydelivery\""))
    }

    /// Whether `output` is `input` with only apply lines replaced, inserted or removed.
    static func differsOnlyInApplyLines(_ input: String, _ output: String) -> Bool {
        // Split on LF bytes: to Swift, CR LF is one Character, which a split on "\n" would not see.
        func lines(_ text: String) -> [Substring] {
            text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) }
        }
        let old = lines(input)
        let new = lines(output)
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                i += 1
                j += 1
            } else if i < old.count, j < new.count, isApplyLine(old[i].dropLast(old[i].hasSuffix("\r") ? 1 : 0)),
                isApplyLine(new[j].dropLast(new[j].hasSuffix("\r") ? 1 : 0))
            {
                i += 1
                j += 1
            } else if j < new.count, isApplyLine(new[j].dropLast(new[j].hasSuffix("\r") ? 1 : 0)) {
                j += 1
            } else if i < old.count, isApplyLine(old[i].dropLast(old[i].hasSuffix("\r") ? 1 : 0)) {
                i += 1
            } else {
                return false
            }
        }
        return true
    }

    @Test(
        "a migration over every corpus playlist changes only FairPlay key and version lines, or leaves the file with an error; never a crash"
    )
    func migration() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let template = KeyTemplate(
            try TemplateDefinition(inline: "skd://new-license.example.com/fps/{title_dir}/{playlist_stem}/{key_index}"))
        let options = ApplyOptions(template: template, assumeEncrypted: true, sessionKeys: true)
        let runner = ApplyRunner(options: options, destination: .directory(output.path))
        let discovery = PlaylistDiscovery().discover([Corpus.directory!.path])
        #expect(discovery.problems.isEmpty)
        let outcomes = discovery.packages.flatMap(runner.run)
        #expect(outcomes.count == Corpus.entries.count)
        var changed = 0
        var failed = 0
        for entry in Corpus.entries {
            let outcome = try #require(outcomes.first { $0.path.hasSuffix("/" + entry.file) })
            let original = String(decoding: try Data(contentsOf: entry.url), as: UTF8.self)
            let written = try? Data(contentsOf: output.appendingPathComponent(entry.file))
            if outcome.failed {
                failed += 1
                #expect(written == nil, "\(entry.file) failed but was written")
                #expect(outcome.diagnostics.contains { $0.severity == .error })
            } else {
                let result = String(decoding: try #require(written, "\(entry.file) was not written"), as: UTF8.self)
                #expect(Self.differsOnlyInApplyLines(original, result), "\(entry.file) changed more than key lines")
                #expect((result == original) == outcome.changes.isEmpty, "\(entry.file): changes and bytes disagree")
                if result != original { changed += 1 }
            }
        }
        // The corpus has FairPlay, multi-DRM and clear playlists: some change, some are refused.
        #expect(changed >= 20)
        #expect(failed >= 5)
    }

    @Test("applying to the corpus output again changes nothing")
    func idempotent() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // Not title_dir: the second run reads the first run's output directory.
        let template = KeyTemplate(try TemplateDefinition(inline: "skd://new-license.example.com/fps/{playlist_stem}/{key_index}"))
        let options = ApplyOptions(template: template, assumeEncrypted: true, sessionKeys: true)
        let first = root.appendingPathComponent("1")
        let second = root.appendingPathComponent("2")
        for package in PlaylistDiscovery().discover([Corpus.directory!.path]).packages {
            _ = ApplyRunner(options: options, destination: .directory(first.path)).run(package)
        }
        let outcomes = PlaylistDiscovery().discover([first.path]).packages.flatMap {
            ApplyRunner(options: options, destination: .directory(second.path)).run($0)
        }
        #expect(!outcomes.isEmpty)
        for outcome in outcomes where !outcome.failed {
            #expect(outcome.changes.isEmpty, "\(outcome.path) changed on the second run: \(outcome.changes)")
        }
    }
}
