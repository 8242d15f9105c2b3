import SKDTemplate
import Testing

@testable import SKDKeys
@testable import SKDPack
@testable import SKDValidation

/// What a review of the one key path found, each held: secrets from any source hidden, every secret of a
/// playlist noted, a key kept as it is still seen by the rotation check.
@Suite("the key path: secrets from every source, and kept keys in the rotation check")
struct KeyPathReviewTests {
    static func key(_ uri: String) -> String {
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri)",\#(Keys.fairPlay)"#
    }

    @Test("a secret whose value comes from the key itself (old_uri) is hidden in changes and messages")
    func secretFromTheKey() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines("#EXTM3U", "#EXT-X-VERSION:5", Self.key("skd://old/SECRETTOKEN123"), "#EXTINF:6,", "s1.ts"),
            "tpl.yaml": "name: t\nuri: \"skd://x/{old_uri|url}\"\nvariables:\n  old_uri: {secret: true}\n",
        ])
        defer { fixture.remove() }
        try fixture.apply(template: fixture.input.appendingPathComponent("tpl.yaml").path)
        let outcome = try #require(fixture.outcome("t/v.m3u8"))
        let shown = outcome.changes.flatMap { [$0.before?.text, $0.after?.text] }.compactMap { $0 } + outcome.diagnostics.map(\.message)
        #expect(!shown.isEmpty)
        #expect(!shown.contains { $0.contains("SECRETTOKEN123") }, "\(shown)")
        #expect(outcome.changes.contains { $0.after?.text.contains("REDACTED") == true })
    }

    @Test("every secret a playlist gives is hidden, though the old URI held one of them already")
    func everyPlaylistSecret() throws {
        var fixture = try ApplyFixture([
            "t1/v.m3u8": .lines("#EXTM3U", "#EXT-X-VERSION:5", Self.key("skd://x/AAAAKEEP/OLDBBBB"), "#EXTINF:6,", "s1.ts"),
            "tpl.yaml": "name: t\nuri: \"skd://x/{a}/{b}\"\nvariables:\n  a: {secret: true}\n  b: {secret: true}\n",
            "c.csv": "title_dir,a,b\nt1,AAAAKEEP,NEWBBBB\n",
        ])
        defer { fixture.remove() }
        try fixture.apply(
            template: fixture.input.appendingPathComponent("tpl.yaml").path, catalogFile: fixture.input.appendingPathComponent("c.csv").path
        )
        let outcome = try #require(fixture.outcome("t1/v.m3u8"))
        let after = outcome.changes.compactMap(\.after?.text)
        #expect(!after.isEmpty)
        #expect(!after.contains { $0.contains("NEWBBBB") || $0.contains("AAAAKEEP") }, "\(after)")
    }

    @Test("a key the template makes already is still seen by the rotation check")
    func keptKeyInRotationCheck() throws {
        var fixture = try ApplyFixture([
            "t/v.m3u8": .lines(
                "#EXTM3U", "#EXT-X-VERSION:5", Self.key("skd://x/B"), "#EXTINF:6,", "s1.ts", Self.key("skd://old?cid=B"), "#EXTINF:6,",
                "s2.ts")
        ])
        defer { fixture.remove() }
        // The first key is what the template makes (kept); the second renders to the same URI for another key.
        try fixture.apply(template: "skd://x/{content_id}", match: #"cid=(?<content_id>\w+)"#)
        let outcome = try #require(fixture.outcome("t/v.m3u8"))
        #expect(outcome.diagnostics.contains { $0.id == KeyMapDiagnostics.rotationFolded.id }, "\(outcome.diagnostics)")
    }
}
