import CPIX
import Foundation
import SKDFiles
import SKDKeys
import SKDPack
import SKDTemplate
import SKDTestSupport
import Testing

/// A FairPlay key is rewritten as it is read, unless its period may still change it; whatever a template
/// asks of each key besides its URI (`allow_hosts`, its host checked per key) or whatever a `--match` gives
/// that the template does not use, the same playlists are written and the same is said.
@Suite("keys rewritten as they are read: what the general path writes and says")
struct KeyRewrittenAsReadTests {
    static let match = #"skd://old\.example\.com/(?<cid>[^?/]+)(\?kid=(?<kid_hex>[0-9a-fA-F]*))?"#
    static let template = "skd://new.example.com/fps?cid={cid|lower}&k={kid_hex}"

    /// Key periods of every kind a rewrite tells apart: keys of three systems, a period without a
    /// FairPlay key (one is added after its last key), one whose FairPlay key repeats the old URI, one
    /// whose old URI the match does not fit, a FairPlay key FairPlay cannot use, one with a variable, two in
    /// a period, a value to percent-encode, CRLF line ends and no final newline.
    static let playlist = [
        "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:6", #"#EXT-X-DEFINE:NAME="id",VALUE="Title-9""#,
        Keys.widevine, Keys.playReady, Keys.fairPlayKey("skd://old.example.com/Title-1?kid=00AB"), "#EXTINF:6,", "s0.ts",
        Keys.widevine, "#EXTINF:6,", "s1.ts",
        Keys.fairPlayKey("skd://old.example.com/Title-1?kid=00AB"), Keys.playReady, "#EXTINF:6,", "s2.ts",
        Keys.fairPlayKey("skd://elsewhere/Title-2"), "#EXTINF:6,", "s3.ts",
        Keys.fairPlayKey("skd://old.example.com/Title-3", method: "AES-128"), "#EXTINF:6,", "s4.ts",
        Keys.fairPlayKey("skd://old.example.com/{$id}?kid=01"), "#EXTINF:6,", "s5.ts",
        Keys.fairPlayKey("skd://old.example.com/Title%204?kid=02"), Keys.fairPlayKey("skd://old.example.com/T5"), "#EXTINF:6,",
        "s6.ts",
    ].joined(separator: "\r\n")

    @Test("--match: the same playlists, changes and findings, on a hostile playlist and on the corpus")
    func matched() throws {
        let fast = try KeyTemplate(TemplateDefinition(inline: Self.template))
        var general = try TemplateDefinition(inline: Self.template)
        general.allowHosts = ["new.example.com"]
        var files = ["t/v.m3u8": Self.playlist]
        // The corpus's playlists that are text (a fixture writes strings), when it is there.
        for entry in Corpus.entries {
            if let text = (try? Data(contentsOf: entry.url)).flatMap({ String(data: $0, encoding: .utf8) }) {
                files["corpus/" + entry.file] = text
            }
        }
        try compare(files, fast: fast, general: KeyTemplate(general), match: Self.match, generalMatch: Self.match)
    }

    @Test("--cpix with one key for every period: the same playlists, changes (with their KIDs) and findings")
    func truthKey() throws {
        let kid = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
        let signaling = Data(
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://keys.example.com/\#(kid)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                .utf8
        ).base64EncodedString()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <cpix:CPIX xmlns:cpix="urn:dashif:org:cpix" contentId="title-1" version="2.3">
            <cpix:ContentKeyList><cpix:ContentKey kid="\(kid)" commonEncryptionScheme="cbcs"/></cpix:ContentKeyList>
            <cpix:DRMSystemList><cpix:DRMSystem kid="\(kid)" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2"><cpix:HLSSignalingData playlist="media">\(signaling)</cpix:HLSSignalingData></cpix:DRMSystem></cpix:DRMSystemList>
            </cpix:CPIX>
            """
        let document = try CPIXReader.parse(Array(xml.utf8), path: "keys.xml")
        let template = try KeyTemplate.resolve("cpix", in: TemplateLibrary())
        try compare(
            ["t/v.m3u8": Self.playlist], fast: template, general: template, truth: KeyTruth(documents: [document]),
            generalMatch: "(?<unused>.*)")
    }

    /// Applies `fast` and `general` to the same playlists and expects the same output and outcomes, and
    /// that the fast run rewrote keys at all.
    private func compare(
        _ files: [String: String], fast: KeyTemplate, general: KeyTemplate, truth: KeyTruth = KeyTruth(), match: String? = nil,
        generalMatch: String
    ) throws {
        var runs: [ApplyFixture] = []
        for (template, pattern) in [(fast, match), (general, generalMatch)] {
            var fixture = try ApplyFixture(files)
            var options = ApplyOptions(
                template: template, variables: VariableSources(match: try pattern.map(NamedPattern.init)), assumeEncrypted: true)
            options.keyTruth = truth
            options.keepsChangeDetails = true
            let runner = ApplyRunner(options: options, destination: .directory(fixture.output.path))
            fixture.outcomes = PlaylistDiscovery().discover([fixture.input.path]).packages.flatMap(runner.run)
            runs.append(fixture)
        }
        defer { for run in runs { run.remove() } }
        let (fast, general) = (runs[0], runs[1])
        #expect(fast.outcome("t/v.m3u8")?.changes.contains { $0.action == .rewritten } == true)
        for name in files.keys.sorted() {
            #expect(fast.result(name) == general.result(name), "\(name)")
            #expect(fast.outcome(name)?.changes == general.outcome(name)?.changes, "\(name)")
            // Findings as a user reads them, the runs' own folders left out.
            func findings(_ run: ApplyFixture) -> [String]? {
                run.outcome(name)?.diagnostics.map {
                    "\($0.location.line) \($0.id.rawValue) " + $0.message.replacingOccurrences(of: run.input.path, with: "IN")
                }
            }
            #expect(findings(fast) == findings(general), "\(name)")
        }
    }
}
