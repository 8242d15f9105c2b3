import HLS
import SKDPack
import SKDReports
import Testing

/// An XML report read back: the report it was written from, and a located reason for anything else.
@Suite("reading XML reports")
struct ReportXMLReaderTests {
    @Test("an XML report reads back as the report it was written from (characters XML cannot hold aside)")
    func roundTrip() throws {
        let report = ReportFixture.report
        let read = try ReportXMLReader.decode(try ReportXML.encode(report))
        // XML 1.0 has no way to carry U+0001: the writer puts U+FFFD in its place.
        let expected = String(ReportFixture.hostileMessage.map { $0 == "\u{01}" ? "\u{FFFD}" : $0 })
        #expect(read.playlists[1].diagnostics[0].message.text == expected)
        #expect(read.tool == report.tool)
        #expect(read.run == report.run)
        #expect(read.summary == report.summary)
        #expect(read.playlists.map(\.path) == report.playlists.map(\.path))
        for (lhs, rhs) in zip(read.playlists, report.playlists) {
            #expect(lhs.changes == rhs.changes)
            #expect(lhs.diagnostics.map(\.rule) == rhs.diagnostics.map(\.rule))
            #expect((lhs.kind, lhs.status, lhs.package) == (rhs.kind, rhs.status, rhs.package))
        }
    }

    @Test(
        "what is not an skdpack XML report is refused, saying where and why",
        arguments: [
            ("<report", "not well-formed"),
            ("{\"schemaVersion\": \"1\"}", "not well-formed"),
            ("<report xmlns=\"urn:other\" schemaVersion=\"1\"/>", "the root element is not <report xmlns=\"urn:skdpack:report:1\">"),
            ("<report xmlns=\"urn:skdpack:report:1\" schemaVersion=\"9\"/>", "schema version 9"),
            (
                "<report xmlns=\"urn:skdpack:report:1\" schemaVersion=\"1\">\n<tool name=\"skdpack\"/></report>",
                "line 1: <report> has no <run>"
            ),
            (
                "<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><report xmlns=\"urn:skdpack:report:1\" schemaVersion=\"&x;\"/>",
                "the document has a DTD"
            ),
            // An internal entity libxml2 would expand in an attribute value, whatever its options.
            (
                "<!DOCTYPE r [<!ENTITY v \"1\">]><report xmlns=\"urn:skdpack:report:1\" schemaVersion=\"&v;\"/>",
                "the document has a DTD"
            ),
        ])
    func malformed(_ text: String, _ reason: String) throws {
        do {
            _ = try ReportXMLReader.decode(Array(text.utf8))
            Issue.record("read as a report: \(text)")
        } catch let error as ReportXMLReader.Malformed {
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains("root:"), "an external entity is never read")
        }
    }

    @Test("a playlist with a value skdpack never writes is refused with its line")
    func badValue() throws {
        var text = String(decoding: try ReportXML.encode(ReportFixture.report), as: UTF8.self)
        text = text.replacingOccurrences(of: "status=\"unchanged\"", with: "status=\"great\"")
        #expect {
            try ReportXMLReader.decode(Array(text.utf8))
        } throws: { error in
            "\(error)".contains("status=\"great\" of <playlist> is not one skdpack writes") && "\(error)".contains("line ")
        }
    }
}
