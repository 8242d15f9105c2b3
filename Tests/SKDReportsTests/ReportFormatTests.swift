import Foundation
import HLS
import SKDKeys
import SKDPack
import SKDReportCheck
import SKDReportModel
import SKDReports
import SKDTemplate
import SKDTestSupport
import Testing

/// Golden files live beside this file; `SKDPACK_UPDATE_GOLDEN=1 swift test` rewrites them after a
/// deliberate change of a format (then review the diff).
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ bytes: [UInt8], _ name: String) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["SKDPACK_UPDATE_GOLDEN"] == "1" {
            try Data(bytes).write(to: url)
        }
        let expected = try [UInt8](Data(contentsOf: url))
        #expect(bytes == expected, "\(name) differs from its golden file; SKDPACK_UPDATE_GOLDEN=1 rewrites it")
    }
}

@Suite("report formats")
struct ReportFormatTests {
    static let xsd = try! XMLSchemaValidator(xsd: ReportSchemas.xsd)

    @Test("the XML report is valid against the shipped XSD, hostile text included, and matches its golden file")
    func xml() throws {
        let bytes = try ReportXML.encode(ReportFixture.report)
        #expect(Self.xsd.problems(in: bytes) == [])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("URI &quot;skd://a&lt;b&gt;&amp;c&quot; holds \u{FFFD} and \u{FFFD} (was 0xFF)"))
        try Golden.check(bytes, "report.xml")
    }

    @Test("the JSON report is valid against the shipped JSON Schema, decodes back equal, and matches its golden file")
    func json() throws {
        let bytes = try ReportJSON.encode(ReportFixture.report)
        let schema = try JSONSchemaCheck(schema: ReportSchemas.jsonSchema)
        #expect(try schema.problems(in: bytes) == [])
        #expect(try ReportJSON.decode(bytes) == ReportFixture.report)
        try Golden.check(bytes, "report.json")
    }

    @Test("JUnit: a test case per playlist, a failure per error, well-formed; golden file")
    func junit() throws {
        let bytes = try JUnitReport.encode(ReportFixture.report)
        #expect(XMLSchemaValidator.wellFormednessProblem(in: bytes) == nil)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<testcase ").count - 1 == 3)
        #expect(text.components(separatedBy: "<failure ").count - 1 == 1)
        #expect(text.contains(#"tests="3" failures="1""#))
        try Golden.check(bytes, "report.junit.xml")
    }

    @Test("SARIF 2.1.0: the rules that fired with help and spec section, a result per finding; golden file")
    func sarif() throws {
        let bytes = try SARIFReport.encode(ReportFixture.report, rules: FindingKinds.all)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["FPS-iv", "FPS-scheme", "FPS-skd-without-slashes"])
        #expect(((rules[1]["help"] as? [String: Any])?["text"] as? String)?.contains("See Apple FairPlay Streaming") == true)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        #expect(results.map { $0["level"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["error", "note", "warning"])
        try Golden.check(bytes, "report.sarif")
    }

    @Test("written as it goes, the JSON report reads as the whole one; the XML one is byte for byte the same")
    func streams() throws {
        let report = ReportFixture.report
        let json = ReportJSONStream(tool: report.tool)
        var bytes = try json.start()
        for playlist in report.playlists { bytes += try json.add(playlist) }
        bytes += try json.finish(run: report.run, summary: report.summary)
        #expect(try ReportJSON.decode(bytes) == report)
        #expect(bytes == (try ReportJSON.encode(report)), "the same bytes as JSONEncoder's")
        let schema = try JSONSchemaCheck(schema: ReportSchemas.jsonSchema)
        #expect(try schema.problems(in: bytes) == [])

        let empty = ReportJSONStream(tool: report.tool)
        let none = try empty.start() + empty.finish(run: report.run, summary: Report.Summary())
        #expect(try ReportJSON.decode(none).playlists.isEmpty)

        let xml = try ReportXMLStream(tool: report.tool)
        var xmlBytes = try xml.start()
        for playlist in report.playlists { xmlBytes += try xml.add(playlist) }
        xmlBytes += try xml.finish(run: report.run, summary: report.summary)
        #expect(xmlBytes == (try ReportXML.encode(report)))
        #expect(Self.xsd.problems(in: xmlBytes) == [])
    }

    @Test("the streamed JSON is JSONEncoder's to the byte for every character a string can hold")
    func jsonEscapes() throws {
        var text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
        text += "\u{80}\u{9F}é€😀\u{2028}\u{2029}\u{FFFD}/\\\""
        let entries = [
            Report.Playlist(
                path: text, package: "p", kind: .mixed, status: .failed,
                changes: [ApplyChange(line: 1, tag: text, action: .removed, before: Redacted(readBack: text), after: nil)],
                diagnostics: [Report.Finding(rule: "R", severity: .warning, line: Int.max, column: 0, message: Redacted(readBack: text))]),
            Report.Playlist(path: "", package: "", kind: .unknown, status: .passed, changes: [], diagnostics: []),
        ]
        let report = Report(tool: ReportFixture.report.tool, run: ReportFixture.run, playlists: entries)
        let stream = ReportJSONStream(tool: report.tool)
        var bytes = try stream.start()
        for playlist in report.playlists { bytes += try stream.add(playlist) }
        bytes += try stream.finish(run: report.run, summary: report.summary)
        #expect(bytes == (try ReportJSON.encode(report)))
        #expect(try ReportJSON.decode(bytes) == report)
    }

    @Test("the streamed JSON is JSONEncoder's wherever an escaped byte falls in the writer's 8-byte words")
    func jsonEscapesAtEveryOffset() throws {
        let plain = String(repeating: "skd://a.example/", count: 3)
        let texts = (0..<plain.count).flatMap { offset in
            ["\"", "\\", "\n", "\u{1}", "é"].map { String(plain.prefix(offset)) + $0 + String(plain.dropFirst(offset)) }
        }
        let changes = texts.map {
            ApplyChange(line: 1, tag: "EXT-X-KEY", action: .rewritten, before: Redacted(readBack: $0), after: Redacted(readBack: $0 + "\""))
        }
        let entry = Report.Playlist(path: "p", package: "p", kind: .media, status: .changed, changes: changes, diagnostics: [])
        let report = Report(tool: ReportFixture.report.tool, run: ReportFixture.run, playlists: [entry])
        let stream = ReportJSONStream(tool: report.tool)
        var bytes = try stream.start()
        bytes += try stream.add(entry)
        bytes += try stream.finish(run: report.run, summary: report.summary)
        #expect(bytes == (try ReportJSON.encode(report)))
    }

    @Test("outside run, reports of the same input are equal whatever the time")
    func volatileOnlyInRun() throws {
        var later = ReportFixture.report
        let again = Report(
            tool: later.tool,
            run: Report.Run(
                command: "apply", arguments: ReportFixture.run.arguments, template: "entitlement",
                startedAt: "2026-11-22T08:30:00Z", durationMilliseconds: 7),
            playlists: later.playlists)
        #expect(again.run != later.run)
        later = Report(tool: later.tool, run: again.run, playlists: later.playlists)
        #expect(later == again)
        #expect(try ReportJSON.encode(later) == ReportJSON.encode(again))
    }

    @Test("summary counts playlists by status, key changes by action, session keys and findings by severity")
    func summary() {
        let summary = ReportFixture.report.summary
        #expect(summary.playlistsRead == 3)
        #expect((summary.changed, summary.unchanged, summary.failed) == (1, 1, 1))
        #expect((summary.keysRewritten, summary.keysInserted, summary.keysRemoved) == (1, 1, 1))
        #expect(summary.sessionKeys == 1)
        #expect((summary.errors, summary.warnings, summary.infos) == (1, 1, 1))
        #expect(
            ReportFixture.report.playlists.map(\.path) == [
                "library/other/index.m3u8", "library/title/master.m3u8", "library/title/video.m3u8",
            ], "by package, then by path")
    }

    @Test("the XSD validator rejects what the schema forbids and what is not XML")
    func validatorRejects() throws {
        let valid = String(decoding: try ReportXML.encode(ReportFixture.report), as: UTF8.self)
        let badSeverity = valid.replacingOccurrences(of: #"severity="warning""#, with: #"severity="fatal""#)
        #expect(!Self.xsd.problems(in: Array(badSeverity.utf8)).isEmpty)
        let truncated = Array(valid.utf8.prefix(200))
        #expect(Self.xsd.problems(in: truncated).first?.hasPrefix("not well-formed XML") == true)
        #expect(throws: XMLSchemaValidator.Failure.self) { try XMLSchemaValidator(xsd: Array("<nope/>".utf8)) }
    }
}
