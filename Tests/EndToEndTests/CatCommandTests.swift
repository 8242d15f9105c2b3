import Foundation
import SKDTestSupport
import Testing

@Suite("skdpack cat, as a user runs it")
struct CatCommandTests {
    @Test(
        "gives every corpus playlist back byte for byte, with findings on stderr and no crash",
        .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipReason)))
    func corpus() throws {
        #expect(Corpus.entries.count == 150)
        var withFindings = 0
        for entry in Corpus.entries {
            let original = try Data(contentsOf: entry.url)
            let result = try SKDPackRunner.run(["cat", entry.url.path])
            #expect(result.stdout == original, "\(entry.file) did not round-trip")
            #expect(result.status == 0 || result.status == 1, "\(entry.file) exited \(result.status): \(result.stderr)")
            if result.status == 1 {
                withFindings += 1
                #expect(result.stderr.contains(": error: "), "\(entry.file) exited 1 without an error")
            }
            if entry.isNegative, entry.file.contains("empty") {
                #expect(result.status == 1)
            }
        }
        // The corpus's broken-on-purpose playlists must be among those with findings.
        #expect(withFindings >= Corpus.entries.filter(\.isNegative).count / 2)
    }

    @Test("reads standard input with -")
    func standardInput() throws {
        let playlist = Data("#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXTINF:4,\r\na.ts\r\n#EXT-X-ENDLIST".utf8)
        let result = try SKDPackRunner.run(["cat", "-"], stdin: playlist)
        #expect(result.status == 0)
        #expect(result.stdout == playlist)
        #expect(result.stderr.isEmpty)
    }

    @Test("reports path:line:col, severity, message and rule, and exits 1 on an error")
    func diagnosticsFormat() throws {
        let playlist = Data("#EXTM3U\n#EXT-X-TARGETDURATION:NaN\n".utf8)
        let result = try SKDPackRunner.run(["cat", "-"], stdin: playlist, environment: ["NO_COLOR": "1"])
        #expect(result.status == 1)
        #expect(result.stdout == playlist)
        #expect(result.stderr == "-:2:23: error: #EXT-X-TARGETDURATION needs a decimal-integer, found \"NaN\" [HLS-tag-value]\n")
    }

    @Test("a missing file is exit 2 with the path and the reason")
    func missingFile() throws {
        let result = try SKDPackRunner.run(["cat", "/nonexistent/x.m3u8"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("/nonexistent/x.m3u8: cannot open for reading: No such file or directory"))
    }

    @Test("a directory is exit 2")
    func directory() throws {
        let result = try SKDPackRunner.run(["cat", NSTemporaryDirectory()])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read a directory"))
    }

    @Test("--max-line-length passes a long line through and reports it")
    func longLine() throws {
        let playlist = Data(("#EXTM3U\n#EXTINF:4,\n" + String(repeating: "x", count: 5000) + ".ts\n").utf8)
        let result = try SKDPackRunner.run(["cat", "--max-line-length", "1024", "-"], stdin: playlist)
        #expect(result.status == 1)
        #expect(result.stdout == playlist)
        #expect(result.stderr.contains("-:3:1: error: this line is longer than 1024 bytes"))
    }
}

@Suite("skdpack inspect, rules, usage and help")
struct InspectCommandTests {
    @Test("prints the typed view as JSON")
    func inspect() throws {
        let playlist = Data(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:6.006,
            s1.ts

            """.utf8)
        let result = try SKDPackRunner.run(["inspect", "-"], stdin: playlist)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(json["kind"] as? String == "media")
        #expect(json["schemaVersion"] as? Int == 1)
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.count == 1)
        #expect(segments[0]["uri"] as? String == "s1.ts")
        #expect(segments[0]["duration"] as? Double == 6.006)
        let keys = try #require(segments[0]["keys"] as? [[String: Any]])
        let key = try #require(keys.first?["key"] as? [String: Any])
        #expect(key["uri"] as? String == "skd://title-1")
        #expect(key["keyFormat"] as? String == "com.apple.streamingkeydelivery")
        #expect(keys.first?["line"] as? Int == 3)
    }

    @Test(
        "every subcommand's help shows an example",
        arguments: [
            "apply", "validate", "render", "resolve", "templates", "rules", "cat", "inspect", "report",
        ])
    func helpExamples(subcommand: String) throws {
        let result = try SKDPackRunner.run([subcommand, "--help"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("skdpack \(subcommand)") && result.stdoutText.contains("Example"))
    }

    @Test(
        "usage errors exit 2 with a message",
        arguments: [
            ["apply", "x.m3u8"], ["apply", "--template", "content-id"], ["cat"], ["nonsense"],
            ["apply", "--template", "content-id", "--check", "--diff", "x.m3u8"],
        ])
    func usage(arguments: [String]) throws {
        let result = try SKDPackRunner.run(arguments)
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
    }

    @Test("rules lists the reader's findings with their spec sections")
    func rules() throws {
        let result = try SKDPackRunner.run(["rules", "--format", "json"])
        #expect(result.status == 0)
        let rules = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: String]])
        let ids = rules.compactMap { $0["id"] }
        #expect(ids == ids.sorted())
        #expect(ids.contains("HLS-attribute-whitespace"))
        #expect(rules.allSatisfy { !($0["specSection"] ?? "").isEmpty })
    }
}
