import HLS
import SKDPack
import SKDReportModel
import SKDReports
import SKDTestSupport
import Testing

/// The HTML report's text: every value from a playlist, a catalogue, a template or a finding is text, never
/// markup; held over the generated reports (paths, messages, URIs with `<`, `&`, quotes, controls).
@Suite("HTML report")
struct HTMLReportTests {
    /// The page with every tag and attribute value taken out: what a value could have added as markup is
    /// left as `<` or `>` in it.
    static func markupLeft(_ page: String) -> [String] {
        var found: [String] = []
        var index = page.startIndex
        while let open = page[index...].firstIndex(of: "<") {
            guard let close = page[open...].firstIndex(of: ">") else {
                found.append(String(page[open...].prefix(40)))
                break
            }
            let tag = page[open...close]
            // A tag this writer writes: a known name, then attributes of quoted values without `<`.
            let name = tag.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" }
            if !Self.tags.contains(String(name).replacingOccurrences(of: "/", with: "")) || tag.dropFirst().contains("<") {
                found.append(String(tag.prefix(60)))
            }
            index = page.index(after: close)
        }
        return found
    }

    static let tags: Set<String> = [
        "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "main", "section", "h1", "h2", "h3", "h4", "p", "span", "dl", "div",
        "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "code", "ul", "li", "a", "strong", "br", "svg", "rect", "line", "text",
    ]

    @Test("no value becomes markup, in 200 generated reports", arguments: 0..<200)
    func valuesAreText(_ seed: Int) throws {
        var generator = ReportGenerator(seed: UInt64(seed))
        let report = generator.report()
        let page = String(decoding: try ReportFormat.html.encode(report, rules: FindingKinds.all), as: UTF8.self)
        #expect(Self.markupLeft(page) == [], "seed \(seed)")
        #expect(!page.contains("<script") && !page.contains("<img") && !page.contains("onerror"))
        // No Swift debug description of a value (an optional interpolated as such) reaches the page.
        #expect(!page.contains("Optional(") && !page.contains("Redacted(text:"), "seed \(seed)")
        for playlist in report.playlists {
            #expect(page.contains(HTMLReportStream.escape(playlist.package)))
        }
    }

    @Test("escape: the five markup characters as references, controls as U+FFFD")
    func escaping() {
        #expect(
            HTMLReportStream.escape(#"<a href="x" onclick='y'>&amp;</a>"#)
                == "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
        #expect(HTMLReportStream.escape("bell \u{07} del \u{7F}") == "bell \u{FFFD} del \u{FFFD}")
    }

    @Test("the HTML report streams: written as its packages come, the summary last, the same page as made whole")
    func streamsAsWhole() throws {
        var generator = ReportGenerator(seed: 7)
        let report = generator.report()
        let stream = HTMLReportStream(tool: report.tool)
        var bytes = try stream.start()
        var sectionsBeforeEnd = 0
        for playlist in report.playlists {
            let piece = try stream.add(playlist)
            sectionsBeforeEnd += String(decoding: piece, as: UTF8.self).components(separatedBy: "<section class=\"title\"").count - 1
            bytes += piece
        }
        let tail = try stream.finish(run: report.run, summary: report.summary)
        let packages = Set(report.playlists.map(\.package)).count
        #expect(sectionsBeforeEnd == packages - 1, "each package's section is written when the next one starts")
        bytes += tail
        #expect(bytes == (try ReportFormat.html.encode(report, rules: FindingKinds.all)))
    }

    @Test("renditions of one file name (360p/index.m3u8, 720p/index.m3u8) are told apart by their paths in the title")
    func sameFileNames() throws {
        let key = Report.KeyPeriod.Key(
            format: "com.apple.streamingkeydelivery", method: "SAMPLE-AES", uri: "skd://lic.example.com/fps?cid=t", keyID: nil)
        let periods = [Report.KeyPeriod(line: 5, firstSegment: 0, startMilliseconds: 0, durationMilliseconds: 6000, keys: [key])]
        let playlists = ["360p", "720p"].map { folder in
            Report.Playlist(
                path: "lib/t/\(folder)/index.m3u8", package: "lib/t/master.m3u8", kind: .media, status: .unchanged, changes: [],
                diagnostics: [Report.Finding(rule: "HLS-version-too-low", severity: .error, line: 2, column: 1, message: "low")],
                keyPeriods: periods)
        }
        let report = Report(tool: Report.Tool(version: "0.1.0"), run: ReportFixture.run, playlists: playlists)
        let page = String(decoding: try ReportFormat.html.encode(report, rules: FindingKinds.all), as: UTF8.self)
        #expect(page.contains("360p/index.m3u8, 720p/index.m3u8"))
        #expect(page.contains("360p/index.m3u8 0:00") && page.contains("720p/index.m3u8 0:00"))
        #expect(page.contains("360p/index.m3u8:2") && page.contains("720p/index.m3u8:2"))
        #expect(!page.contains("index.m3u8, index.m3u8"))
    }
}
