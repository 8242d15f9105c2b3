import Foundation
import SKDTestSupport
import Testing

/// `skdpack cpix show` and `skdpack inspect` on the real documents and init segments of the shared
/// material, as a user runs them.
@Suite("cpix show and inspect on real material")
struct KeyTruthCommandTests {
    static let documents = SharedMaterial.files(in: SharedMaterial.cpix, extensions: ["xml"])
    static let segments = SharedMaterial.files(in: SharedMaterial.media, extensions: ["mp4", "cmfv", "m4i"])

    /// Every key value a document holds: PSKC plain values, encrypted values and MACs, anything base64
    /// under a `Secret`.
    static func keyValues(in url: URL) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let pattern = try Regex(#"<(?:\w+:)?(?:PlainValue|CipherValue|ValueMAC)>\s*([^<\s]+)\s*<"#)
        return text.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
    }

    @Test func theMaterialIsThere() {
        #expect(SharedMaterial.cpix == nil || (Self.documents.count >= 20 && Self.segments.count >= 15))
    }

    @Test("every shared CPIX document is shown or refused with file:line:, and no key value of it is ever printed", arguments: documents)
    func showNeverPrintsAKeyValue(_ url: URL) throws {
        let values = try Self.keyValues(in: url)
        for format in ["text", "json"] {
            let run = try SKDPackRunner.run(["cpix", "show", "--format", format, url.path])
            if run.status == 0 {
                #expect(run.stdoutText.contains(url.path) || format == "json")
                #expect(run.stderr.isEmpty)
            } else {
                #expect(run.status == 2)
                #expect(run.stderr.hasPrefix("skdpack: \(url.path):"), "\(run.stderr)")
                #expect(run.stderr.firstMatch(of: /:\d+:\s/) != nil, "\(run.stderr)")
            }
            for value in values {
                #expect(
                    !run.stdoutText.contains(value) && !run.stderr.contains(value),
                    "key value \(value.prefix(6))… of \(url.lastPathComponent)")
            }
        }
    }

    @Test(.enabled(if: SharedMaterial.cpix != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func theShowOfAKeyServerResponseHasItsFairPlayKey() throws {
        let url = try #require(Self.documents.first { $0.lastPathComponent.contains("livesim2") })
        let run = try SKDPackRunner.run(["cpix", "show", "--format", "json", url.path])
        #expect(run.status == 0)
        let json = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
        let keys = json?["keys"] as? [[String: Any]]
        let fairPlay = keys?.first?["fairPlay"] as? [String: Any]
        // The URI carries the key's IV after the colon: an IV is a secret, shown only when asked for.
        #expect(fairPlay?["uri"] as? String == "skd://01234567-89ab-cdef-0123-456789abcdef:REDACTED")
        #expect(fairPlay?["keyFormatVersions"] as? String == "1")
        // This test vector's IV is its KID: the output hides every occurrence of a secret, the KID's too.
        #expect(keys?.first?["kidHex"] as? String == "REDACTED")
        let shown = try SKDPackRunner.run(["cpix", "show", "--format", "json", "--show-secrets", url.path])
        let shownKeys = (try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])?["keys"] as? [[String: Any]]
        let shownURI = (shownKeys?.first?["fairPlay"] as? [String: Any])?["uri"] as? String
        #expect(shownURI == "skd://01234567-89ab-cdef-0123-456789abcdef:0123456789abcdef0123456789abcdef")
        #expect(shownKeys?.first?["kidHex"] as? String == "0123456789abcdef0123456789abcdef")
    }

    @Test("inspect gives each shared init segment the scheme and default KID SOURCES.tsv lists", arguments: segments)
    func inspectAgreesWithSources(_ url: URL) throws {
        let row = try #require(SharedMaterial.sources(in: SharedMaterial.media!).first { $0["name"] == url.lastPathComponent })
        let run = try SKDPackRunner.run(["inspect", url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
        let tracks = (json?["tracks"] as? [[String: Any]] ?? []).flatMap { $0["sampleEntries"] as? [[String: Any]] ?? [] }
            .filter { $0["scheme"] != nil }
        let schemes = row["scheme(schm)"]!.hasPrefix("none") ? [] : row["scheme(schm)"]!.split(separator: ",").map(String.init)
        #expect(tracks.map { $0["scheme"] as? String } == schemes)
        let kids = schemes.isEmpty ? [] : row["default_KID(tenc)"]!.split(separator: ",").map(String.init)
        #expect(tracks.map { $0["defaultKID"] as? String } == kids)
    }

    @Test(.enabled(if: SharedMaterial.media != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func aTruncatedInitSegmentIsALocatedError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let source = try #require(Self.segments.first { $0.lastPathComponent.contains("init-fairplay") })
        let bytes = try Data(contentsOf: source)
        try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: scratch.path("cut.mp4")))
        let run = try SKDPackRunner.run(["inspect", scratch.path("cut.mp4")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cut.mp4: offset 36: box 'moov': its size"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}

/// Every shared CPIX document used for a run, as a packaging job and a CI check would: no key value of it
/// in the output, the messages, or any report format.
@Suite("no CPIX key value reaches a run's output or reports")
struct CPIXKeyValueLeakTests {
    static let playlist = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:6
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXTINF:6,
        a.m4s
        #EXT-X-ENDLIST

        """

    @Test(arguments: KeyTruthCommandTests.documents)
    func applyAndValidate(_ url: URL) throws {
        let values = try KeyTruthCommandTests.keyValues(in: url)
        guard !values.isEmpty else { return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("video.m3u8", Self.playlist)
        let reports = ["r.json", "r.xml", "r.junit.xml", "r.sarif"]
        let apply = try SKDPackRunner.run(
            ["apply", "--template", "skd://{kid}", "--cpix", url.path, "--check", "--no-progress"]
                + reports.flatMap { ["--report", scratch.path("apply-" + $0)] } + [scratch.path("video.m3u8")])
        var texts = [apply.stdoutText, apply.stderr]
        for format in ["human", "json", "xml", "junit", "sarif"] {
            let run = try SKDPackRunner.run(["validate", "--cpix", url.path, "--format", format, scratch.path("video.m3u8")])
            texts += [run.stdoutText, run.stderr]
        }
        for report in reports where FileManager.default.fileExists(atPath: scratch.path("apply-" + report)) {
            texts.append(try scratch.text("apply-" + report))
        }
        #expect(texts.count >= 12)
        for value in values {
            #expect(!texts.contains { $0.contains(value) }, "a key value of \(url.lastPathComponent) was shown")
        }
    }
}
