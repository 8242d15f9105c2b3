import Foundation
import SKDTestSupport
import Testing

/// The lines `validate` quotes under its findings, for a person at a terminal.
@Suite("validate's excerpts of the lines it reports")
struct ExcerptTests {
    @Test("a line cut short says so at the end it was cut, as at the start")
    func cutLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-excerpt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let longURI = "skd://lic.example.com/" + String(repeating: "a", count: 300)
        let playlist = directory.appendingPathComponent("v.m3u8")
        try Data(
            """
            #EXTM3U
            #EXT-X-VERSION:5
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=AES-128,URI="\(longURI)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:6,
            s1.ts
            #EXT-X-ENDLIST

            """.utf8
        ).write(to: playlist)
        let result = try SKDPackRunner.run(["validate", "--no-progress", playlist.path])
        let quoted = result.stdoutText.split(separator: "\n").filter { $0.hasPrefix("    #EXT-X-KEY:") }
        #expect(!quoted.isEmpty, "\(result.stdoutText)")
        for line in quoted {
            // The finding is near the start of the line: shown from its start, cut at the end, and saying so.
            #expect(line.hasSuffix("…"), "\(line)")
            #expect(line.count <= 4 + 160 + 1)
        }
    }
}
