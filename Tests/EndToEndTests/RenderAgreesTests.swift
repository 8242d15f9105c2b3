import Foundation
import SKDTestSupport
import Testing

/// `skdpack render` shows what `apply` writes: for generated templates (every built-in, filters, defaults,
/// patterns) and values from every source (`--var`, `--match`, `--path-pattern`, `--catalog`, the key's
/// built-ins), the URI `apply` writes into a playlist's key is the URI `render` prints for the same key,
/// or both refuse. `render` takes the template's renderer, `apply` its compiled form through the one key
/// path: two ways in, one answer.
@Suite("render shows what apply writes")
struct RenderAgreesTests {
    static let templates = [
        "skd://lic.example.com/{content_id}/{key_index}",
        "skd://{server|strip_scheme}?cid={content_id|url}&k={kid}",
        "skd://lic.example.com/{title_dir}/{playlist_stem}?old={old_uri|url}",
        "skd://lic.example.com/{content_id|upper}?p={playlist|url}&i={key_index}",
        "skd://{content_id}",
        "skd://lic.example.com/fps?cid={content_id|lower|url}&x={extra}",
    ]
    static let contentIDs = ["title-7", "Title Seven", "t/7&x=1", "caf\u{E9}", "7%41", "https://lic.example.com/x", "a\"b"]

    @Test("the URI apply writes is the one render prints, over generated templates and sources")
    func agree() throws {
        var random = SplitMix(seed: 0x2E4D_E2)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-render-agrees-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var compared = 0
        var refused = 0
        for case_ in 0..<36 {
            let title = root.appendingPathComponent("case-\(case_)/title-\(case_)")
            try FileManager.default.createDirectory(at: title, withIntermediateDirectories: true)
            // The first cases are refusals on purpose (a second scheme, a quote), the rest drawn at random.
            let template = case_ < 2 ? "skd://{content_id}" : Self.templates.randomElement(using: &random)!
            let contentID = case_ < 2 ? ["https://lic.example.com/x", "a\"b"][case_] : Self.contentIDs.randomElement(using: &random)!
            let kid = String(format: "%032x", case_ + 1)
            let oldURI = "skd://old.example.com/fps?cid=\(contentID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            let playlist = title.appendingPathComponent("video.m3u8")
            try Data(
                """
                #EXTM3U
                #EXT-X-VERSION:5
                #EXT-X-TARGETDURATION:6
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\(kid.uppercased()),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1"
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="\(oldURI)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
                #EXTINF:6,
                s1.ts
                #EXT-X-ENDLIST

                """.utf8
            ).write(to: playlist)
            // Where content_id comes from: given, the old URI's cid (decoded by nobody: as it stands), the
            // path, or a catalogue row.
            var sources: [String] = ["--var", "server=https://lic.example.com/fps", "--var", "extra=e 1"]
            switch case_ < 2 ? 0 : Int.random(in: 0..<4, using: &random) {
            case 0: sources += ["--var", "content_id=\(contentID)"]
            case 1: sources += ["--match", "[?&]cid=(?<content_id>[^&]+)"]
            case 2: sources += ["--path-pattern", "(?<content_id>title-[0-9]+)/"]
            default:
                let catalog = root.appendingPathComponent("case-\(case_)/catalog.csv")
                let quoted = "\"" + contentID.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                try Data("title_dir,content_id\ntitle-\(case_),\(quoted)\n".utf8).write(to: catalog)
                sources += ["--catalog", catalog.path]
            }
            // Only the variables the template uses may be given (apply's plan refuses the others).
            let uses = { (name: String) in template.contains("{\(name)") }
            var given: [String] = []
            var index = 0
            while index < sources.count {
                let (flag, value) = (sources[index], sources[index + 1])
                let name = flag == "--var" ? String(value.prefix { $0 != "=" }) : "content_id"
                if uses(name) { given += [flag, value] }
                index += 2
            }
            let applied = try SKDPackRunner.run(["apply", "--template", template] + given + [playlist.path])
            let rendered = try SKDPackRunner.run(
                ["render", "--template", template] + given + ["--playlist", playlist.path, "--key-index", "0", "--old-uri", oldURI]
                    + (uses("kid") ? ["--kid", kid] : []))
            let written = applied.stdoutText.split(separator: "\n").first { $0.contains("com.apple.streamingkeydelivery") }
                .flatMap { line in line.split(separator: "\"").dropFirst().first.map(String.init) }
            let printed = rendered.stdoutText.split(separator: "\n").first.map(String.init)
            if applied.status == 0, rendered.status == 0 {
                #expect(written == printed, "\(template) \(given): apply wrote \(written ?? "-"), render printed \(printed ?? "-")")
                compared += 1
            } else {
                // A refusal on one side is a refusal on the other (apply's plan or key, render's value).
                #expect(
                    applied.status != 0 && rendered.status != 0,
                    "\(template) \(given): apply \(applied.status) \(applied.stderr) render \(rendered.status) \(rendered.stderr)")
                refused += 1
            }
        }
        #expect(compared >= 15 && refused >= 2, "compared \(compared), refused \(refused)")
    }
}
