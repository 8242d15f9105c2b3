import Foundation
import SKDTestSupport
import Testing

/// A token reaches the playlists it is written into and nothing else: over generated libraries whose old
/// FairPlay URIs (keys and session keys, rotating or not) carry tokens, migrated with a new token from
/// every way one comes in, through `apply` (`--diff`, `--check`, `--in-place`, `--output`) and `validate`,
/// every report format and both output streams, whatever the run's outcome.
@Suite("secrets: no token in any output, over generated libraries")
struct SecretPropertyTests {
    static let expressPlay = "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken="

    /// A token as license services issue them: letters and digits, long enough to be one.
    static func token(_ random: inout SplitMix) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return "Tk" + String((0..<28).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }

    /// A library of one to three titles: a master (with the old session keys, or none) and one or two media
    /// playlists of one to three key periods, each period's FairPlay key an ExpressPlay URI with a token of
    /// its own (rotating) or one for the title; the old tokens.
    static func library(in scratch: Scratch, _ random: inout SplitMix) throws -> [String] {
        var oldTokens: [String] = []
        for title in 0..<(1 + Int(random.next() % 3)) {
            let folder = "lib/title-\(title)"
            try FileManager.default.createDirectory(atPath: scratch.path(folder), withIntermediateDirectories: true)
            let periods = 1 + Int(random.next() % 3)
            let rotates = random.next() % 2 == 0
            let tokens = (0..<(rotates ? periods : 1)).map { _ in token(&random) }
            oldTokens += tokens
            let names = (0..<(1 + Int(random.next() % 2))).map { "video-\($0)" }
            for name in names {
                var lines = ["#EXTM3U", "#EXT-X-VERSION:5", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD"]
                for period in 0..<periods {
                    let uri = expressPlay + tokens[rotates ? period : 0]
                    lines.append(
                        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
                    lines += ["#EXTINF:6.0,", "\(name)-\(period).ts"]
                }
                try scratch.write("\(folder)/\(name).m3u8", (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n")
            }
            var master = ["#EXTM3U", "#EXT-X-VERSION:5"]
            if random.next() % 2 == 0 {
                master.append(
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="\#(expressPlay + tokens[0])",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                )
            }
            for (index, name) in names.enumerated() {
                master += [
                    #"#EXT-X-STREAM-INF:BANDWIDTH=\#(800_000 * (index + 1)),CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360"#,
                    "\(name).m3u8",
                ]
            }
            try scratch.write("\(folder)/master.m3u8", master.joined(separator: "\n") + "\n")
        }
        return oldTokens
    }

    /// The ways a new token comes in: the arguments that give it (and the template), and its value.
    static func source(_ kind: Int, scratch: Scratch, titles: [String], _ random: inout SplitMix) throws -> ([String], [String]) {
        let new = token(&random)
        switch kind {
        case 0:
            return (["--template", "expressplay-token", "--var", "token=\(new)"], [new])
        case 1:
            try scratch.write("token.txt", new + "\n")
            return (["--template", "expressplay-token", "--var-file", "token=\(scratch.path("token.txt"))"], [new])
        case 2:
            // A token per title, from a catalogue row.
            let tokens = titles.map { _ in token(&random) }
            try scratch.write("titles.csv", "title_dir,token\n" + zip(titles, tokens).map { "\($0),\($1)\n" }.joined())
            return (["--template", "expressplay-token", "--catalog", scratch.path("titles.csv")], tokens)
        case 3:
            return (["--template", expressPlay + "{token}", "--var", "token=\(new)"], [new])
        case 4:
            try scratch.write(
                "mine.yaml",
                "name: mine\nuri: \"skd://lic.example.com/fps?cid={content_id}&p={key_index}&t={tok}\"\nvariables:\n  tok:\n    secret: true\n"
            )
            return (
                ["--template", scratch.path("mine.yaml"), "--var", "tok=\(new)", "--path-pattern", "(?<content_id>title-[0-9]+)/"], [new]
            )
        default:
            // The old token kept, read with --match into the template's secret variable.
            return (["--template", "expressplay-token", "--match", "ExpressPlayToken=(?<token>[^&]+)"], [])
        }
    }

    @Test("no old or new token in standard output or error, a diff, or any report format, over 36 generated runs")
    func noTokenAnywhere() throws {
        var random = SplitMix(seed: 0x5345_4352)
        // What the runs did, so that the property is not held of runs that did nothing.
        var (written, reported, refused) = (0, 0, 0)
        defer {
            #expect(written >= 6 && reported >= 12 && refused >= 2, "written \(written), reported \(reported), refused \(refused)")
        }
        for run in 0..<36 {
            let scratch = try Scratch(folder: nil)
            defer { scratch.remove() }
            let old = try Self.library(in: scratch, &random)
            let titles = try FileManager.default.contentsOfDirectory(atPath: scratch.path("lib")).sorted()
            let (given, new) = try Self.source(run % 6, scratch: scratch, titles: titles, &random)
            let tokens = old + new
            let destinations = [["--diff"], ["--check"], ["--in-place"], ["--output", scratch.path("out")]]
            let destination = destinations[Int(random.next() % UInt64(destinations.count))]
            let reports = ["r.json", "r.xml", "r.junit.xml", "r.sarif", "r.html"].map(scratch.path)
            let apply = try SKDPackRunner.run(
                ["apply"] + given + destination + ["--no-progress", scratch.path("lib")] + reports.flatMap { ["--report", $0] })
            let validateFormat = ["human", "json", "xml", "junit", "sarif"][Int(random.next() % 5)]
            let validateReports = ["v.json", "v.html"].map(scratch.path)
            // validate takes the template and the values given for the run (its check of the keys against them).
            var pinned: [String] = []
            for (index, argument) in given.enumerated() where ["--template", "--var", "--var-file"].contains(argument) {
                pinned += [argument, given[index + 1]]
            }
            let validate = try SKDPackRunner.run(
                ["validate", "--format", validateFormat] + pinned + [scratch.path(destination.first == "--output" ? "out" : "lib")]
                    + validateReports.flatMap { ["--report", $0] })
            let texts =
                [apply.stdoutText, apply.stderr, validate.stdoutText, validate.stderr]
                + (reports + validateReports).compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            let what = "run \(run): apply \(given + destination) exit \(apply.status), validate exit \(validate.status)"
            if apply.status == 0, destination != ["--check"], destination != ["--diff"] { written += 1 }
            if FileManager.default.fileExists(atPath: reports[0]) { reported += 1 }
            if apply.status == 2 || apply.stderr.contains("error:") { refused += 1 }
            #expect(apply.status != 3 && validate.status != 3, "\(what)")
            for token in tokens {
                let leaks = texts.filter { $0.contains(token) }
                #expect(leaks.isEmpty, "\(what): \(token) in \(leaks.map { $0.prefix(300) })")
                if !leaks.isEmpty { return }
            }
        }
    }
}
