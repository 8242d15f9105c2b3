import Foundation
import SKDTestSupport
import Testing

/// A `secret` variable's value reaches the playlists it is for and nothing else: not a message, a diff, a
/// report of any format, or a line quoted under a finding — whether it came from `--var`, a catalogue row
/// or a `--match` group, and even when it is in the playlist before skdpack runs.
@Suite("secrets never leak")
struct SecretTests {
    static let token = "CatalogTok3n-abcdefghijklmnop"
    static let oldToken = "OldTok3n-qrstuvwxyz0123456789"

    /// Every report format of one apply run, as text.
    static func reports(_ scratch: Scratch, _ arguments: [String]) throws -> (SKDPackRunner.Result, [String]) {
        let names = ["r.json", "r.xml", "r.junit.xml", "r.sarif"]
        let run = try SKDPackRunner.run(arguments + names.flatMap { ["--report", scratch.path($0)] })
        return (run, try names.map { try scratch.text($0) })
    }

    @Test("inspect shows a token in a key URI as REDACTED, as validate does without a template")
    func inspect() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let uri = "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=\(Self.token)"
        try scratch.write(
            "t.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"\(uri)\","
                + "KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n")
        let result = try SKDPackRunner.run(["inspect", scratch.path("t.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdoutText.contains(Self.token) && !result.stderr.contains(Self.token), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("ExpressPlayToken=REDACTED"), "\(result.stdoutText)")
    }

    @Test("resolve shows a token in the URI it is given as REDACTED, and as it is only with --show-secrets")
    func resolve() throws {
        let uri = "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=\(Self.token)"
        let hidden = try SKDPackRunner.run(["resolve", uri])
        #expect(hidden.status == 0, "\(hidden.stderr)")
        #expect(hidden.stdoutText == "https://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=REDACTED\n")
        #expect(!hidden.stderr.contains(Self.token))
        let refused = try SKDPackRunner.run(["resolve", "--allow-host", "lic.example.com", uri])
        #expect(refused.status == 1 && !refused.stderr.contains(Self.token), "\(refused.stderr)")
        let shown = try SKDPackRunner.run(["resolve", "--show-secrets", uri])
        #expect(shown.stdoutText == "https://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=\(Self.token)\n")
    }

    @Test("render shows a secret as REDACTED in the URI and the license URL, and as it is only with --show-secrets")
    func render() throws {
        let base = ["render", "--template", "expressplay-token", "--var", "token=\(Self.token)"]
        let hidden = try SKDPackRunner.run(base)
        #expect(hidden.status == 0, "\(hidden.stderr)")
        #expect(!hidden.stdoutText.contains(Self.token) && !hidden.stderr.contains(Self.token), "\(hidden.stdoutText)")
        #expect(
            hidden.stdoutText
                == "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=REDACTED\n"
                + "https://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=REDACTED\n")
        let shown = try SKDPackRunner.run(base + ["--show-secrets"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdoutText.components(separatedBy: "ExpressPlayToken=\(Self.token)\n").count == 3, "\(shown.stdoutText)")
    }

    @Test("a short secret (a mistyped token) is hidden where it stands, not in every word that holds its letters")
    func shortSecret() throws {
        let run = try SKDPackRunner.run(["render", "--template", "expressplay-token", "--var", "token=x"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "skdpack render: the value REDACTED of token (from --var) does not match its pattern [A-Za-z0-9._~%+/=-]{16,4096}: "
                + "it should be the ExpressPlay token that authorizes playback\n", "\(run.stderr)")
    }

    @Test("a value from --var-file is named so in messages (apply, validate, render), not as a --var")
    func fileValueNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("token.txt", Self.token + "\n")
        try scratch.write("v.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n")
        let given = ["--template", "expressplay-token", "--var-file", "tokn=\(scratch.path("token.txt"))"]
        for arguments in [
            ["apply"] + given + ["--check", scratch.path("v.m3u8")], ["validate"] + given + [scratch.path("v.m3u8")], ["render"] + given,
        ] {
            let run = try SKDPackRunner.run(arguments)
            #expect(run.status == 2, "\(arguments[0]): \(run.stderr)")
            #expect(
                run.stderr.contains("--var-file tokn: the template expressplay-token has no variable tokn; did you mean token?"),
                "\(arguments[0]): \(run.stderr)")
        }
    }

    @Test("a secret from --var-file: off the command line, in the playlists, in no output or report; a file that cannot serve is refused")
    func fromFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // As an editor on Windows leaves it: a byte-order mark and one final CRLF, neither part of the token.
        try scratch.write("token.txt", "\u{FEFF}" + Self.token + "\r\n")
        let given = ["--template", "expressplay-token", "--var-file", "token=\(scratch.path("token.txt"))"]
        let (run, reports) = try Self.reports(
            scratch, ["apply"] + given + ["--in-place", "--no-progress", scratch.path("library/legacy-title")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdoutText.contains(Self.token) && !run.stderr.contains(Self.token))
        for report in reports { #expect(!report.contains(Self.token), "\(report.prefix(200))") }
        for playlist in ["master.m3u8", "video-360p.m3u8"] {
            #expect(try scratch.text("library/legacy-title/\(playlist)").contains("ExpressPlayToken=\(Self.token)\","))
        }
        // validate and render read it the same way, and show it nowhere.
        let validate = try SKDPackRunner.run(["validate"] + given + [scratch.path("library/legacy-title")])
        #expect(validate.status == 0, "\(validate.stdoutText)\(validate.stderr)")
        let render = try SKDPackRunner.run(["render"] + given)
        #expect(render.stdoutText.hasPrefix("skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=REDACTED\n"))
        // A file that is not there, too large, or holds a line break inside: refused before anything is read.
        let before = try scratch.snapshot("library")
        try scratch.write("large.txt", String(repeating: "a", count: 70_000))
        try scratch.write("two-lines.txt", "abc\ndef\n")
        try scratch.write("empty.txt", "\n")
        for (file, says) in [
            ("missing.txt", "--var-file token: cannot read \(scratch.path("missing.txt")): No such file or directory"),
            ("large.txt", "too large (over 65536 bytes)"), ("two-lines.txt", "--var-file token: the value holds \\n"),
            ("empty.txt", "--var-file token: \(scratch.path("empty.txt")) is empty"),
        ] {
            let refused = try SKDPackRunner.run(
                [
                    "apply", "--template", "expressplay-token", "--var-file", "token=\(scratch.path(file))", "--in-place",
                    scratch.path("library"),
                ])
            #expect(refused.status == 2 && refused.stderr.contains(says), "\(file): \(refused.stderr)")
        }
        let twice = try SKDPackRunner.run(
            ["apply", "--var", "token=\(Self.token)"] + given + ["--in-place", scratch.path("library")])
        #expect(twice.status == 2 && twice.stderr.contains("--var-file token: token is given with --var too"), "\(twice.stderr)")
        #expect(try scratch.snapshot("library") == before)
    }

    @Test("a secret from a catalogue row: in the playlist, nowhere in diffs, reports or messages (the master's session key too)")
    func fromCatalog() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("titles.csv", "title_dir,token\nlegacy-title,\(Self.token)\n")
        let base = ["apply", "--template", "expressplay-token", "--catalog", scratch.path("titles.csv"), "--no-progress"]

        let diff = try SKDPackRunner.run(base + ["--diff", scratch.path("library/legacy-title")])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdoutText.contains("ExpressPlayToken=REDACTED"))
        #expect(
            diff.stdoutText.contains(
                "+#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI=\"skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=REDACTED\""
            ))
        #expect(!diff.stdoutText.contains(Self.token) && !diff.stderr.contains(Self.token))

        let (run, reports) = try Self.reports(scratch, base + ["--in-place", scratch.path("library/legacy-title")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains(Self.token))
        for report in reports {
            #expect(!report.contains(Self.token), "\(report.prefix(200))")
        }
        #expect(reports[0].contains("ExpressPlayToken=REDACTED"), "the report does list the change")
        #expect(try scratch.text("library/legacy-title/video-360p.m3u8").contains("ExpressPlayToken=\(Self.token)"))
        #expect(try scratch.text("library/legacy-title/master.m3u8").contains("ExpressPlayToken=\(Self.token)"))
    }

    @Test(
        "a secret taken from the old URI with --match: hidden in the diff's context and the report's before, even when it breaks its pattern"
    )
    func fromMatch() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let playlist = scratch.path("library/legacy-title/video-360p.m3u8")
        let original = try scratch.text("library/legacy-title/video-360p.m3u8")
        try scratch.write(
            "library/legacy-title/video-360p.m3u8",
            original.replacingOccurrences(of: "skd://legacy-0042", with: "skd://old.example.com/fp?t=\(Self.oldToken)"))
        let base = ["apply", "--template", "expressplay-token", "--match", "[?&]t=(?<token>[^&]+)", "--no-progress"]

        // The title, as a rendition alone is refused where its master announces another key.
        let diff = try SKDPackRunner.run(base + ["--diff", scratch.path("library/legacy-title")])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdoutText.contains("-#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://old.example.com/fp?t=REDACTED\""))
        #expect(!diff.stdoutText.contains(Self.oldToken))

        let (run, reports) = try Self.reports(scratch, base + ["--check", playlist])
        #expect(run.status == 1)
        for report in reports { #expect(!report.contains(Self.oldToken)) }

        // A token too short for the template's pattern: the error says so without showing it.
        try scratch.write(
            "library/legacy-title/video-360p.m3u8",
            original.replacingOccurrences(of: "skd://legacy-0042", with: "skd://old.example.com/fp?t=short-secret"))
        let refused = try SKDPackRunner.run(base + ["--check", playlist])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("[TPL-render]"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("short-secret"), "\(refused.stderr)")
    }

    @Test("validate --template: a token already in a playlist is hidden in messages, quoted lines and reports")
    func inThePlaylist() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let original = try scratch.text("library/legacy-title/video-360p.m3u8")
        // The version too low, so that a finding quotes the key line itself.
        try scratch.write(
            "library/legacy-title/video-360p.m3u8",
            original.replacingOccurrences(
                of: "skd://legacy-0042", with: "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=\(Self.oldToken)"
            )
            .replacingOccurrences(of: "#EXT-X-VERSION:5", with: "#EXT-X-VERSION:3"))
        let playlist = scratch.path("library/legacy-title/video-360p.m3u8")
        let pinned = ["--var", "token=\(Self.token)"]
        for format in ["human", "json", "xml", "junit", "sarif"] {
            let run = try SKDPackRunner.run(["validate", "--template", "expressplay-token", "--format", format, playlist] + pinned)
            #expect(run.status == 1, "\(format): \(run.stderr)")
            #expect(!run.stdoutText.contains(Self.oldToken) && !run.stderr.contains(Self.oldToken), "\(format)")
            #expect(!run.stdoutText.contains(Self.token), "\(format)")
        }
        let human = try SKDPackRunner.run(["validate", "--template", "expressplay-token", playlist] + pinned)
        #expect(human.stdoutText.contains("[TPL-key-mismatch]"))
        // The quoted line keeps its length, so the caret still points at the column.
        #expect(human.stdoutText.contains("ExpressPlayToken=" + String(repeating: "*", count: Self.oldToken.count)))
    }

    // The four leaks a newcomer and a check of the HTML report found, each an ExpressPlay token in clear.

    static let expressPlay = "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken="

    /// A media playlist whose periods' FairPlay keys have `uris`.
    static func media(_ uris: [String]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:5", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (index, uri) in uris.enumerated() {
            lines.append(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
            lines += ["#EXTINF:6.0,", "s\(index).ts"]
        }
        return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    /// Standard output and error of `arguments`, and every report format it writes (HTML too).
    static func everything(_ scratch: Scratch, _ arguments: [String]) throws -> (SKDPackRunner.Result, String) {
        let names = ["all.json", "all.xml", "all.junit.xml", "all.sarif", "all.html"]
        let run = try SKDPackRunner.run(arguments + names.flatMap { ["--report", scratch.path($0)] })
        let reports = names.compactMap { try? scratch.text($0) }
        return (run, ([run.stdoutText, run.stderr] + reports).joined(separator: "\n"))
    }

    @Test("a secret value a template's filter changes (|upper, |strip_scheme) is hidden in render, a diff and reports")
    func filteredSecret() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        try scratch.write(
            "tpl.yaml",
            "name: up\nuri: \"skd://{server|strip_scheme}/{t|upper}?cid={content_id}\"\n"
                + "variables:\n  t: {secret: true}\n  server: {secret: true}\n  content_id: {}\n")
        try scratch.write("t.txt", "PlainSecretValue42\n")
        try scratch.write("t/video.m3u8", Self.media(["skd://old.example.com/fps?cid=t"]))
        let values = ["--var-file", "t=\(scratch.path("t.txt"))", "--var", "server=https://lic.example.com/fps/PrivPathSecret77"]
        let render = try SKDPackRunner.run(["render", "--template", scratch.path("tpl.yaml"), "--var", "content_id=x"] + values)
        let (apply, reports) = try Self.reports(
            scratch, ["apply", "--template", scratch.path("tpl.yaml"), "--var", "content_id=t", "--diff"] + values + [scratch.path("t")])
        #expect(render.status == 0 && apply.status == 0, "\(render.stderr) \(apply.stderr)")
        #expect(apply.stdoutText.contains("+#EXT-X-KEY"))
        for text in [render.stdoutText, render.stderr, apply.stdoutText, apply.stderr] + reports {
            for secret in ["PLAINSECRETVALUE42", "PlainSecretValue42", "PrivPathSecret77"] { #expect(!text.contains(secret), "\(text)") }
        }
    }

    @Test("a CDN's token on a variant's, a rendition's or a segment's URI is hidden in every output of validate and inspect")
    func cdnTokens() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        let (variant, rendition, segment) = ("0123456789abcdef0123456789abcdef", "AudioTok3n-0123456789", "SegTok3n-9876543210")
        try scratch.write(
            "t/master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,CHANNELS=\"2\","
                + "URI=\"audio.m3u8?token=\(rendition)\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aac\"\n"
                + "video.m3u8?hdnts=exp=1700000000~acl=/*~hmac=\(variant)\n")
        try scratch.write(
            "t/video.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.000,\n"
                + "seg0.ts?token=\(segment)\n#EXT-X-ENDLIST\n")
        for format in ["human", "json", "xml", "junit", "sarif", "html"] {
            let (run, all) = try Self.everything(scratch, ["validate", "--format", format, scratch.path("t")])
            // (The audio rendition is missing: a finding that quotes its line.)
            #expect(run.status == 1 && all.contains("PKG-missing-playlist"), "\(format): \(run.stderr)")
            for token in [variant, rendition, segment] { #expect(!all.contains(token), "\(format): \(token)") }
        }
        for playlist in ["t/master.m3u8", "t/video.m3u8"] {
            let inspect = try SKDPackRunner.run(["inspect", scratch.path(playlist)])
            #expect(inspect.status == 0 && !inspect.stdoutText.isEmpty)
            for token in [variant, rendition, segment] { #expect(!inspect.stdoutText.contains(token), "\(playlist): \(token)") }
        }
    }

    @Test("validate's session-key findings hide the token of the URI they quote, in every format")
    func sessionKeyFindings() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        try scratch.write(
            "t/master.m3u8",
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI=\"\(Self.expressPlay)\(Self.token)\","
                + "KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=640x360\nvideo.m3u8\n")
        try scratch.write("t/video.m3u8", Self.media([Self.expressPlay + Self.oldToken]))
        for format in ["human", "json", "xml", "junit", "sarif"] {
            let (run, all) = try Self.everything(scratch, ["validate", "--format", format, scratch.path("t")])
            #expect(run.status == 1, "\(format): \(run.stderr)")
            #expect(all.contains("PKG-session-key-unused") && all.contains("PKG-session-key-missing"), "\(format)")
            #expect(!all.contains(Self.token) && !all.contains(Self.oldToken), "\(format): \(all.prefix(2000))")
        }
    }

    @Test("a --match group that captures the old token is refused before anything is written, its value shown redacted")
    func greedyMatch() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        // Two keys with two tokens: once two content ids, listed on standard error, tokens and all.
        try scratch.write("t/video.m3u8", Self.media([Self.expressPlay + Self.token, Self.expressPlay + Self.oldToken]))
        let before = try scratch.snapshot("t")
        let arguments = [
            "apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--match",
            "skd://(?<content_id>.*)", "--no-progress",
        ]
        for destination in [["--in-place"], ["--output", scratch.path("out")], ["--check"], ["--diff"]] {
            let (run, all) = try Self.everything(scratch, arguments + destination + [scratch.path("t")])
            #expect(run.status == 2, "\(destination): \(run.stderr)")
            #expect(run.stderr.contains("captured fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=REDACTED"), "\(run.stderr)")
            #expect(run.stderr.contains("[?&]cid=(?<content_id>[^&]+)"), "the message suggests a tighter group: \(run.stderr)")
            #expect(!all.contains(Self.token) && !all.contains(Self.oldToken), "\(destination): \(all.prefix(2000))")
            #expect(try scratch.snapshot("t") == before)
            #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
        }
        // A token in a later key than the plan reads: that playlist is refused at its key, and left as it was.
        try scratch.write("t/video.m3u8", Self.media(["skd://old.example.com/title-7", Self.expressPlay + Self.token]))
        let later = try scratch.snapshot("t")
        let (run, all) = try Self.everything(scratch, arguments + ["--in-place", scratch.path("t")])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("[TPL-match-secret]"), "\(run.stderr)")
        #expect(!all.contains(Self.token), "\(all.prefix(2000))")
        #expect(try scratch.snapshot("t") == later)
    }

    @Test("an inline template of the ExpressPlay form keeps its token secret: in the playlist, in no diff or report")
    func inlineExpressPlayTemplate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        try scratch.write("t/video.m3u8", Self.media(["skd://old-license.example.com/fps?cid=title-1"]))
        let given = ["--template", Self.expressPlay + "{token}", "--var", "token=\(Self.token)", "--no-progress"]
        let diff = try SKDPackRunner.run(["apply"] + given + ["--diff", scratch.path("t")])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdoutText.contains("+#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"\(Self.expressPlay)REDACTED\""), "\(diff.stdoutText)")
        #expect(!diff.stdoutText.contains(Self.token) && !diff.stderr.contains(Self.token))
        let (run, all) = try Self.everything(scratch, ["apply"] + given + ["--output", scratch.path("out"), scratch.path("t")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!all.contains(Self.token), "\(all.prefix(3000))")
        #expect(all.contains(Self.expressPlay + "REDACTED"), "the reports do show the change")
        #expect(try scratch.text("out/video.m3u8").contains(Self.expressPlay + Self.token + "\""))
    }
}
