import Foundation
import HLS
import SKDKeys
import SKDPack
import SKDReportModel
import SKDReports
import SKDTemplate
import SKDTestSupport
import Testing

/// The example of docs/swift.md (the README's "From Swift" points there), run: a Swift tool gets apply's whole job through `ApplyRun`, the
/// entry point the command line uses, and a report through `ReportFiles`.
@Suite("the library used from Swift, as docs/swift.md shows")
struct LibraryUseTests {
    /// What the run tells as it goes: notes (a mistake in the plan, an input that cannot be read), each
    /// playlist's outcome (its changes and findings), progress.
    final class Log: ApplyObserver {
        var notes: [String] = []
        var outcomes: [PlaylistOutcome] = []
        func note(_ message: String) { notes.append(message) }
        func applied(_ outcome: PlaylistOutcome) { outcomes.append(outcome) }
        func progress(done playlists: Int, of total: Int) {}
    }

    @Test("the example migrates a copy of the shipped example library in place and writes its report")
    func readmeExample() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-from-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(
            at: PackageLocation.root.appendingPathComponent("examples/library"), to: root.appendingPathComponent("library"))
        let library = root.appendingPathComponent("library").path + "/"
        let reportPath = root.appendingPathComponent("run.json").path

        // docs/swift.md's example, as it stands there.
        let log = Log()
        let template = try KeyTemplate.resolve("entitlement-rotation", in: TemplateLibrary())
        let options = ApplyOptions(
            template: template,
            variables: VariableSources(
                commandLine: [("entitlement_url", "https://new-lic.example.com/fps")],
                match: try NamedPattern(#"(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)"#)))
        let run = ApplyRun(options: options, library: LibraryInput(paths: [library]), destination: .inPlace)
        let report = try ReportFiles([(.file(reportPath), .json)], tool: Report.Tool(version: "my-tool 1.0"), rules: FindingKinds.all)
        let result = run.run(observer: log, report: report) { notDone in
            Report.Run(
                command: "apply", arguments: [], template: "entitlement-rotation", startedAt: "2026-11-24T00:00:00Z",
                durationMilliseconds: 0, notDone: notDone)
        }
        // The example's end.

        #expect(result.run.status == .succeeded, "\(log.notes) \(log.outcomes.flatMap(\.diagnostics))")
        #expect(log.outcomes.filter(\.changed).count >= 5, "\(log.outcomes.map { ($0.path, $0.changed) })")
        let failed = log.outcomes.filter(\.failed).map(\.path)
        #expect(failed.isEmpty, "\(failed)")
        let written = try String(
            decoding: Data(contentsOf: root.appendingPathComponent("library/legacy-title/video-360p.m3u8")), as: UTF8.self)
        #expect(written.contains("skd://new-lic.example.com/fps?cid="))
        let json = try String(decoding: Data(contentsOf: URL(fileURLWithPath: reportPath)), as: UTF8.self)
        #expect(json.contains(#""command" : "apply""#) && json.contains("legacy-title/video-360p.m3u8"))
    }

    @Test("docs/swift.md's example is the code this test runs, line for line, and the README points there")
    func readmeMatchesTest() throws {
        let readme = try String(decoding: Data(contentsOf: PackageLocation.root.appendingPathComponent("README.md")), as: UTF8.self)
        #expect(readme.components(separatedBy: "## From Swift").dropFirst().first?.contains("docs/swift.md") == true)
        let page = try String(decoding: Data(contentsOf: PackageLocation.root.appendingPathComponent("docs/swift.md")), as: UTF8.self)
        let block = try #require(page.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let test = try String(decoding: Data(contentsOf: URL(fileURLWithPath: #filePath)), as: UTF8.self)
        let code = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") && !$0.hasPrefix("import ") }
        let tested = Set(test.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(code.count >= 10)
        // The page's imports are what the code needs: the test's own, but for the test's tools.
        let imports = { (text: Substring) in
            Set(text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init))
        }
        let testTools: Set = ["import Foundation", "import SKDTestSupport", "import Testing"]
        #expect(imports(Substring(block)) == imports(Substring(test)).subtracting(testTools))
        for line in code {
            let present = tested.contains(line)
            #expect(present, "the page's line is not in the test: \(line)")
        }
    }
}
