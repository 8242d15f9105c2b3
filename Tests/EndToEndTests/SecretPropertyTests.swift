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

    /// What stands before `token` in `text`: where a leak came from.
    static func around(_ token: String, in text: String) -> String {
        guard let range = text.firstRange(of: token) else { return "" }
        return String(
            text[(text.index(range.lowerBound, offsetBy: -300, limitedBy: text.startIndex) ?? text.startIndex)..<range.upperBound])
    }

    /// A token as license services issue them: letters and digits, long enough to be one.
    static func token(_ random: inout SplitMix) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return "Tk" + String((0..<28).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }

    /// A library of one to three titles: a master (with the old session keys, or none) and one or two media
    /// playlists of one to three key periods, each period's FairPlay key an ExpressPlay URI with a token of
    /// its own (rotating) or one for the title; some titles' variant and segment URIs with a CDN's token
    /// (Akamai's `hdnts`, a `token` query value); the old tokens, the CDN's among them.
    static func library(in scratch: Scratch, _ random: inout SplitMix, bearer: Bool = false) throws -> [String] {
        var oldTokens: [String] = []
        for title in 0..<(1 + Int(random.next() % 3)) {
            let folder = "lib/title-\(title)"
            try FileManager.default.createDirectory(atPath: scratch.path(folder), withIntermediateDirectories: true)
            let periods = 1 + Int(random.next() % 3)
            let rotates = random.next() % 2 == 0
            let tokens = (0..<(rotates ? periods : 1)).map { _ in token(&random) }
            oldTokens += tokens
            let names = (0..<(1 + Int(random.next() % 2))).map { "video-\($0)" }
            // A CDN's token on the variant and segment URIs, which no key holds (drawn from a stream of its own:
            // the runs' other draws stay as they were).
            var cdnDraws = SplitMix(seed: 0xCD17 &+ UInt64(oldTokens.count) &* 31 &+ UInt64(title))
            let cdn = cdnDraws.next() % 2 == 0 ? token(&cdnDraws) : nil
            if let cdn { oldTokens.append(cdn) }
            // A title whose token is an EXT-X-DEFINE's value, its URIs referencing it ({$tok}).
            let defines = bearer && !rotates && title % 2 == 1
            for name in names {
                var lines = ["#EXTM3U", "#EXT-X-VERSION:\(defines ? 8 : 5)", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD"]
                if defines { lines.append(#"#EXT-X-DEFINE:NAME="tok",VALUE="\#(tokens[0])""#) }
                for period in 0..<periods {
                    let token = defines ? "{$tok}" : tokens[rotates ? period : 0]
                    // A URI of no shipped form: its token known only by the bearer-token rule.
                    let uri =
                        bearer
                        ? (period % 2 == 0
                            ? "skd://lic.example.com/fps?cid=title-\(title)&access_token=\(token)"
                            : "skd://lic.example.com/fps/eyJhbGciOiJIUzI1NiJ9.\(token).c2lnbmF0dXJl?cid=title-\(title)")
                        : expressPlay + token
                    lines.append(
                        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
                    lines += ["#EXTINF:6.0,", "\(name)-\(period).ts" + (cdn.map { "?token=\($0)" } ?? "")]
                }
                try scratch.write("\(folder)/\(name).m3u8", (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n")
            }
            var master = ["#EXTM3U", "#EXT-X-VERSION:5"]
            if random.next() % 2 == 0 {
                let uri = bearer ? "skd://lic.example.com/fps?cid=title-\(title)&access_token=\(tokens[0])" : expressPlay + tokens[0]
                master.append(
                    #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="\#(uri)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                )
            }
            for (index, name) in names.enumerated() {
                master += [
                    #"#EXT-X-STREAM-INF:BANDWIDTH=\#(800_000 * (index + 1)),CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360"#,
                    "\(name).m3u8" + (cdn.map { "?hdnts=exp=1700000000~acl=/*~hmac=\($0)" } ?? ""),
                ]
            }
            try scratch.write("\(folder)/master.m3u8", master.joined(separator: "\n") + "\n")
        }
        return oldTokens
    }

    /// The ways a new token comes in: the arguments that give it (and the template), its value, and the IVs
    /// of a CPIX document (secret wherever the document is known; a playlist publishes them, so `inspect` of
    /// a playlist, which is not given the document, shows them).
    static func source(
        _ kind: Int, scratch: Scratch, titles: [String], _ random: inout SplitMix
    ) throws -> (arguments: [String], secrets: [String], ivs: [String]) {
        let new = token(&random)
        switch kind {
        case 0:
            return (["--template", "expressplay-token", "--var", "token=\(new)"], [new], [])
        case 1:
            try scratch.write("token.txt", new + "\n")
            return (["--template", "expressplay-token", "--var-file", "token=\(scratch.path("token.txt"))"], [new], [])
        case 2:
            // A token per title, from a catalogue row.
            let tokens = titles.map { _ in token(&random) }
            try scratch.write("titles.csv", "title_dir,token\n" + zip(titles, tokens).map { "\($0),\($1)\n" }.joined())
            return (["--template", "expressplay-token", "--catalog", scratch.path("titles.csv")], tokens, [])
        case 3:
            return (["--template", expressPlay + "{token}", "--var", "token=\(new)"], [new], [])
        case 4:
            try scratch.write(
                "mine.yaml",
                "name: mine\nuri: \"skd://lic.example.com/fps?cid={content_id}&p={key_index}&t={tok}\"\nvariables:\n  tok:\n    secret: true\n"
            )
            return (
                ["--template", scratch.path("mine.yaml"), "--var", "tok=\(new)", "--path-pattern", "(?<content_id>title-[0-9]+)/"], [new],
                []
            )
        case 5:
            // The old token kept, read with --match into the template's secret variable.
            return (["--template", "expressplay-token", "--match", "ExpressPlayToken=(?<token>[^&]+)"], [], [])
        case 6:
            // Old URIs of no shipped form (library(bearer:)): their tokens known by the bearer-token rule only.
            return (["--template", "content-id", "--match", "cid=(?<content_id>[^&]+)"], [], [])
        case 7:
            // An inline template of no shipped form that declares nothing secret: its token is a query value
            // the bearer-token rule takes, a JWT given whole, or written out in the template itself.
            let jwt = "eyJhbGciOiJIUzI1NiJ9.\(new).c2lnbmF0dXJl"
            switch random.next() % 3 {
            case 0: return (["--template", "skd://lic.example.com/fps?cid=t&Auth_Token={t}", "--var", "t=\(new)"], [new], [])
            case 1: return (["--template", "skd://lic.example.com/{t}", "--var", "t=\(jwt)"], [new], [])
            default: return (["--template", "skd://lic.example.com/fps?cid=t&__token__=\(new)"], [new], [])
            }
        default:
            // A CPIX document: the key server's URI (a token in it), the key's IV, its value.
            let kid = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let iv = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let value = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
            let uuid = KeyTruthTitle.uuid(kid)
            let signaling =
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(expressPlay + new)",IV=0x\#(hex(iv).uppercased()),KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
            try scratch.write(
                "keys.xml",
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <cpix:CPIX xmlns:cpix="urn:dashif:org:cpix" xmlns:pskc="urn:ietf:params:xml:ns:keyprov:pskc" contentId="t" version="2.3">
                  <cpix:ContentKeyList>
                    <cpix:ContentKey kid="\(uuid)" commonEncryptionScheme="cbcs" explicitIV="\(Data(iv).base64EncodedString())">
                      <cpix:Data><pskc:Secret><pskc:PlainValue>\(Data(value).base64EncodedString())</pskc:PlainValue></pskc:Secret></cpix:Data>
                    </cpix:ContentKey>
                  </cpix:ContentKeyList>
                  <cpix:DRMSystemList>
                    <cpix:DRMSystem kid="\(uuid)" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2">
                      <cpix:HLSSignalingData playlist="media">\(Data(signaling.utf8).base64EncodedString())</cpix:HLSSignalingData>
                    </cpix:DRMSystem>
                  </cpix:DRMSystemList>
                </cpix:CPIX>
                """)
            return (
                ["--template", "cpix", "--cpix", scratch.path("keys.xml")],
                [new, hex(value), Data(value).base64EncodedString()], [hex(iv), hex(iv).uppercased()]
            )
        }
    }

    @Test(
        "no old or new token, IV or key value in standard output or error, a diff, any report format, inspect, cpix show, render, shards and their merge, a terminal, over 54 generated runs"
    )
    func noTokenAnywhere() throws {
        var random = SplitMix(seed: 0x5345_4352)
        // What the runs did, so that the property is not held of runs that did nothing.
        var (written, reported, refused, rendered, terminals, merged) = (0, 0, 0, 0, 0, 0)
        defer {
            #expect(
                written >= 6 && reported >= 12 && refused >= 2 && rendered >= 12 && terminals >= 8 && merged >= 3,
                "written \(written), reported \(reported), refused \(refused), rendered \(rendered), terminals \(terminals), merged \(merged)"
            )
        }
        for run in 0..<54 {
            let scratch = try Scratch(folder: nil)
            defer { scratch.remove() }
            let old = try Self.library(in: scratch, &random, bearer: run % 9 == 6)
            let titles = try FileManager.default.contentsOfDirectory(atPath: scratch.path("lib")).sorted()
            let (given, new, ivs) = try Self.source(run % 9, scratch: scratch, titles: titles, &random)
            let tokens = old + new
            let destinations = [["--diff"], ["--check"], ["--in-place"], ["--output", scratch.path("out")]]
            let destination = destinations[Int(random.next() % UInt64(destinations.count))]
            let reports = ["r.json", "r.xml", "r.junit.xml", "r.sarif", "r.html"].map(scratch.path)
            // inspect of each title's first media playlist as given (a URI as read, an EXT-X-DEFINE it uses).
            let inspects = try titles.map { title in
                try SKDPackRunner.run(["inspect", scratch.path("lib/\(title)/video-0.m3u8")])
            }
            let apply = try SKDPackRunner.run(
                ["apply"] + given + destination + ["--no-progress", scratch.path("lib")] + reports.flatMap { ["--report", $0] })
            let validateFormat = ["human", "json", "xml", "junit", "sarif"][Int(random.next() % 5)]
            let validateReports = ["v.json", "v.html"].map(scratch.path)
            // validate takes the template and the values given for the run (its check of the keys against them).
            var pinned: [String] = []
            for (index, argument) in given.enumerated() where ["--template", "--var", "--var-file", "--cpix"].contains(argument) {
                pinned += [argument, given[index + 1]]
            }
            let validate = try SKDPackRunner.run(
                ["validate", "--format", validateFormat] + pinned + [scratch.path(destination.first == "--output" ? "out" : "lib")]
                    + validateReports.flatMap { ["--report", $0] })
            // What shows a document as it is: cpix show.
            let shows =
                try given.contains("--cpix")
                ? ["text", "json"].map { try SKDPackRunner.run(["cpix", "show", "--format", $0, scratch.path("keys.xml")]) } : []
            // render with the run's template and values, where they make a URI without a playlist.
            let renders =
                try pinned.contains("--var") || pinned.contains("--var-file")
                ? [SKDPackRunner.run(["render"] + pinned)] : []
            // Every sixth run: the library in two shards, their JSON reports merged, and one shard's run on a
            // terminal (the progress line), through `script`.
            var shardTexts: [String] = []
            if run % 6 == 1 {
                for shard in 0..<2 {
                    let arguments =
                        ["apply"] + given + [
                            "--check", "--shard", "\(shard)/2", "--report", scratch.path("s\(shard).json"), scratch.path("lib"),
                        ]
                    let sharded = try SKDPackRunner.run(arguments)
                    shardTexts += [sharded.stdoutText, sharded.stderr]
                }
                let merge = try SKDPackRunner.run(["report", "merge", scratch.path("s0.json"), scratch.path("s1.json")])
                // (A run the plan refuses writes no report: then there is nothing to merge.)
                let both = ["s0.json", "s1.json"].allSatisfy { FileManager.default.fileExists(atPath: scratch.path($0)) }
                // (1: titles of two shards that got one URI, which only the merge sees.)
                #expect(merge.status <= 1 || !both, "\(merge.stderr)")
                if both { merged += 1 }
                shardTexts += [merge.stdoutText, merge.stderr]
                shardTexts.append(try SKDPackRunner.runOnTerminal(["apply"] + given + ["--check", scratch.path("lib")]))
                terminals += 1
            }
            let inspectTexts = inspects.flatMap { [$0.stdoutText, $0.stderr] }
            let texts =
                [apply.stdoutText, apply.stderr, validate.stdoutText, validate.stderr] + inspectTexts + shardTexts
                + (shows + renders).flatMap { [$0.stdoutText, $0.stderr] }
                + (reports + validateReports).compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            let what = "run \(run): apply \(given + destination) exit \(apply.status), validate exit \(validate.status)"
            if apply.status == 0, destination != ["--check"], destination != ["--diff"] { written += 1 }
            if FileManager.default.fileExists(atPath: reports[0]) { reported += 1 }
            rendered += renders.filter { $0.status == 0 }.count
            if apply.status == 2 || apply.stderr.contains("error:") { refused += 1 }
            #expect(apply.status != 3 && validate.status != 3, "\(what)")
            for (token, shown) in tokens.map({ ($0, texts) }) + ivs.map({ ($0, texts.filter { !inspectTexts.contains($0) }) }) {
                let leaks = shown.filter { $0.contains(token) }
                #expect(leaks.isEmpty, "\(what): \(token) in \(leaks.map { Self.around(token, in: $0) })")
                if !leaks.isEmpty { return }
            }
            // Every key URI of these runs holds a token (but the CDN's tokens' run, whose new URIs are content ids):
            // no JSON report carries a digest of one (anyone with the report could test guesses of the token
            // against it), and JSON output stays JSON once redacted.
            for path in [reports[0], validateReports[0], scratch.path("s0.json"), scratch.path("s1.json")] where run % 9 != 6 {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                #expect(!text.contains("\"digest\""), "\(what): a digest of a URI with a token in \(path)")
            }
            for json in ([inspects.first].compactMap { $0 } + shows.suffix(1)) where json.status == 0 {
                #expect((try? JSONSerialization.jsonObject(with: json.stdout)) != nil, "\(what): not JSON: \(json.stdoutText.prefix(400))")
            }
        }
    }
}
