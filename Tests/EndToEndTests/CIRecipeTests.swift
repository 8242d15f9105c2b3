import Foundation
import SKDReportCheck
import SKDTestSupport
import Testing

/// The CI recipes users copy (`examples/ci`, `.pre-commit-hooks.yaml`) run the commands these tests run.
@Suite("CI recipes")
struct CIRecipeTests {
    static let root = PackageLocation.root

    func text(_ relative: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test("validate.sh writes SARIF and JUnit for a library, with validate's exit status; both recipes call it")
    func validateScript() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-ci-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = Process()
        script.executableURL = Self.root.appendingPathComponent("examples/ci/validate.sh")
        script.arguments = [Self.root.appendingPathComponent("examples/library").path, out.path]
        script.environment = ProcessInfo.processInfo.environment.merging(["SKDPACK": SKDPackRunner.executable.path]) { $1 }
        try script.run()
        script.waitUntilExit()
        // The example library holds an error on purpose (crlf-title's EXT-X-VERSION under a FairPlay key).
        #expect(script.terminationStatus == 1)
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("skdpack.sarif"))) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [Any]) ?? []
        #expect(!results.isEmpty)
        let junit = try [UInt8](Data(contentsOf: out.appendingPathComponent("skdpack.junit.xml")))
        #expect(XMLSchemaValidator.wellFormednessProblem(in: junit) == nil)
        #expect(String(decoding: junit, as: UTF8.self).contains("<failure"))
        for recipe in ["examples/ci/github-actions.yml", "examples/ci/gitlab-ci.yml"] {
            #expect(try text(recipe).contains("examples/ci/validate.sh library out"), "\(recipe) runs the tested script")
        }
        #expect(try text("examples/ci/github-actions.yml").contains("sarif_file: out/skdpack.sarif"))
        #expect(try text("examples/ci/gitlab-ci.yml").contains("junit: out/skdpack.junit.xml"))
    }

    @Test("the pre-commit hook's entry, run on the playlists a commit changes, is validate's verdict on them")
    func preCommitHook() throws {
        let hooks = try text(".pre-commit-hooks.yaml")
        let entryLine = try #require(hooks.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("entry:") })
        let words = entryLine.split(separator: ":", maxSplits: 1)[1].split(separator: " ").map(String.init)
        #expect(words.first == "skdpack")
        #expect(hooks.contains(#"files: \.m3u8$"#))
        let library = Self.root.appendingPathComponent("examples/library")
        let clean = try SKDPackRunner.run(Array(words.dropFirst()) + [library.appendingPathComponent("legacy-title/video-360p.m3u8").path])
        #expect(clean.status == 0, "\(clean.stdoutText)")
        let broken = try SKDPackRunner.run(Array(words.dropFirst()) + [library.appendingPathComponent("crlf-title/index.m3u8").path])
        #expect(broken.status == 1)
    }
}
