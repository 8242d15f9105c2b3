import CPIX
import Foundation
import SKDFiles
import SKDReportModel
import SKDTemplate
import SKDTestSupport
import Testing

@testable import SKDKeys
@testable import SKDPack

/// What is secret, in one place: the bearer-token rule over generated URIs, the `Secret` type's text forms,
/// and the reviewed places where a secret's clear form is read.
@Suite("secrets: the type, the bearer-token rule, the reviewed reveals")
struct SecretTypeTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    static func word(_ random: inout SplitMix, length: Int, from letters: [Character] = alphabet) -> String {
        String((0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
    }

    static func secrets(in uri: String) -> [String] {
        var uri = uri
        return uri.withUTF8 { BearerTokens.secrets(in: UnsafeRawBufferPointer($0)) }.map(\.revealed)
    }

    @Test("a token in any of the rule's forms is found in 2,000 generated URIs, and a value outside the rule is not")
    func bearerRule() {
        var random = SplitMix(seed: 0xBEA2E2)
        let secretNames = [
            "token", "access_token", "ExpressPlayToken", "sig", "Signature", "X-Amz-Signature", "hdnts", "Policy",
            "Key-Pair-Id", "api_key", "jwt", "client_secret", "__token__", "__hdnea__", "wowzatokenhash",
        ]
        let clearNames = ["cid", "kid", "content_id", "period", "p", "lang", "tokens_left", "sigma", "keyid"]
        for _ in 0..<2_000 {
            let host = Self.word(&random, length: 6, from: Array("abcdefghijklmnopqrstuvwxyz")) + ".example.com"
            let token = Self.word(&random, length: 8 + Int(random.next() % 40))
            let clear = Self.word(&random, length: 1 + Int(random.next() % 40))
            let short = Self.word(&random, length: 1 + Int(random.next() % 7))
            let jwt = "eyJ" + Self.word(&random, length: 10) + "." + Self.word(&random, length: 20) + "." + Self.word(&random, length: 16)
            let secretName = secretNames[Int(random.next() % UInt64(secretNames.count))]
            let clearName = clearNames[Int(random.next() % UInt64(clearNames.count))]
            var params = ["\(clearName)=\(clear)", "\(secretName)=\(token)"]
            if random.next() % 2 == 0 { params.reverse() }
            let scheme = ["skd://", "https://", "skd://user:\(token)@"][Int(random.next() % 3)]
            let uri: String
            let expected: String
            switch random.next() % 3 {
            case 0:
                uri = scheme + host + "/fps?" + params.joined(separator: ["&", ";"][Int(random.next() % 2)])
                expected = token
            case 1:
                uri = scheme + host + "/fps/" + jwt + "?\(clearName)=\(clear)"
                expected = jwt
            default:
                uri = scheme + host + "/fps?\(clearName)=\(clear)&\(secretName)=\(short)"
                expected = scheme.contains("@") ? token : ""
            }
            let found = Self.secrets(in: uri)
            if !expected.isEmpty { #expect(found.contains(expected), "\(uri): \(found)") }
            // Nothing outside the rule: the clear value, a short value, the host.
            #expect(!found.contains(clear) || clear == token, "\(uri): \(found)")
            #expect(!found.contains(short), "\(uri): \(found)")
            #expect(found.allSatisfy { !$0.isEmpty && !host.contains($0) }, "\(uri): \(found)")
            if expected.isEmpty { #expect(found.isEmpty, "\(uri): \(found)") }
        }
    }

    @Test("a percent-encoded token is found as written and decoded")
    func decoded() {
        let found = Self.secrets(in: "skd://lic.example.com/fps?auth_token=abc%2Bdef%3D%3D")
        #expect(found == ["abc%2Bdef%3D%3D", "abc+def=="])
    }

    @Test("a secret's text forms are REDACTED: interpolation, description, debug description, dump")
    func textForms() {
        let secret = Secret("Tk-very-secret-0123456789")
        var dumped = ""
        dump(secret, to: &dumped)
        for text in ["\(secret)", String(describing: secret), String(reflecting: secret), dumped, "\([secret])"] {
            #expect(!text.contains("very-secret"), "\(text)")
        }
        #expect("\(secret)" == "REDACTED")
        #expect(Redaction(secrets: [secret]).redact("u?t=Tk-very-secret-0123456789") == "u?t=REDACTED")
        // A secret of hex digits (a CPIX IV) is hidden in either case.
        let iv = Secret("00112233445566778899aabbccddeeff")
        #expect(Redaction(secrets: [iv]).redact("IV=0x00112233445566778899AABBCCDDEEFF") == "IV=0xREDACTED")
    }

    @Test("a secret as a template's filters write it is hidden: upper case, lower case, without its scheme")
    func filteredSecrets() {
        let value = Redaction(secrets: [Secret("PlainSecretValue42")])
        #expect(value.redact("skd://lic.example.com/PLAINSECRETVALUE42/x") == "skd://lic.example.com/REDACTED/x")
        #expect(value.redact("skd://lic.example.com/plainsecretvalue42/x") == "skd://lic.example.com/REDACTED/x")
        let url = Redaction(secrets: [Secret("https://lic.example.com/fps/PrivPathSecret77")])
        #expect(url.redact("skd://lic.example.com/fps/PrivPathSecret77?cid=x") == "skd://REDACTED?cid=x")
    }

    @Test("a template's placeholder is no token; a backslash (JSON's escaped quote) ends one")
    func placeholdersAndEscapes() {
        #expect(Array("skd://x/fps?cid=t&token={cdn_token}".utf8).withUnsafeBytes { BearerTokens.secrets(inURI: $0) }.isEmpty)
        #expect(BearerTokens.secrets(in: "uri: \"skd://x/fps?Auth_Token={t|upper}&cid={c}\"").isEmpty)
        let json = ##"{"media" : "#EXT-X-KEY:URI=\"skd://x/fps?token=abcdefgh12345\",KEYFORMAT=\"com.apple.streamingkeydelivery\""}"##
        #expect(BearerTokens.secrets(in: json).map(\.revealed) == ["abcdefgh12345"])
        #expect(Redaction.none.redact(json).contains(##"token=REDACTED\",KEYFORMAT"##))
    }

    @Test("a secret shorter than 8 characters is hidden where it stands alone, not inside a word; a longer one everywhere")
    func shortSecrets() {
        let short = Redaction(secrets: [Secret("x"), Secret("ab1")])
        #expect(
            short.redact("the value x of token does not match: it should be the ExpressPlay token, x2 or ab1x; ab1")
                == "the value REDACTED of token does not match: it should be the ExpressPlay token, x2 or ab1x; REDACTED")
        #expect(short.redact("?cid=x&k=ab1") == "?cid=REDACTED&k=REDACTED")
        #expect(
            String(decoding: short.mask(Array("#EXT-X-KEY:A=\"x\",B=\"xx\",C=x_1".utf8)), as: UTF8.self)
                == "#EXT-X-KEY:A=\"*\",B=\"xx\",C=x_1")
        // Past a multi-byte character, a short secret is inside a word: kept.
        #expect(short.redact("éx x") == "éx REDACTED")
        let long = Redaction(secrets: [Secret("k3y-Z0ne")])
        #expect(long.redact("ak3y-Z0neb") == "aREDACTEDb")
        #expect(String(decoding: long.mask(Array("ak3y-Z0neb".utf8)), as: UTF8.self) == "a********b")
    }

    @Test("a secret cut short in a message (a long value shown to its first characters) is hidden up to the cut")
    func cutSecrets() {
        let secret = "eyJhbGciOiJIUzI1NiJ9.Tk0123456789abcdefghij.c2lnbmF0dXJl"
        let redaction = Redaction(secrets: [Secret(secret)])
        for cut in ["...", "…"] {
            let message = "the value \"lic.example.com/fps/\(secret.prefix(30))\(cut)\" of content_id does not match"
            #expect(redaction.redact(message) == "the value \"lic.example.com/fps/REDACTED\(cut)\" of content_id does not match")
        }
        // Text that merely ends like a short start of a secret before a cut stays: a secret URL's scheme is no secret.
        #expect(redaction.redact("see eyJ... and more") == "see eyJ... and more")
        let url = Redaction(secrets: [Secret("https://lic.example.com/fps")])
        #expect(url.redact("skd://https://… requests as https://…") == "skd://https://… requests as https://…")
    }

    @Test("a CPIX document's secrets: its explicit IVs, its FairPlay signaling's IVs and its key URIs' tokens, in either case")
    func cpixSecrets() throws {
        let line =
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=t&access_token=Tk0123456789abcd",IV=0X00112233445566778899AABBCCDDEEFF,KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <cpix:CPIX xmlns:cpix="urn:dashif:org:cpix" contentId="t" version="2.3">
              <cpix:ContentKeyList>
                <cpix:ContentKey kid="5d1a2f0c-9b3e-4a7d-8f60-12c4e9a7b301" explicitIV="ESIzRFVmd4iZqrvM3e7/AA=="/>
              </cpix:ContentKeyList>
              <cpix:DRMSystemList>
                <cpix:DRMSystem kid="5d1a2f0c-9b3e-4a7d-8f60-12c4e9a7b301" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2">
                  <cpix:HLSSignalingData playlist="media">\(Data(line.utf8).base64EncodedString())</cpix:HLSSignalingData>
                </cpix:DRMSystem>
              </cpix:DRMSystemList>
            </cpix:CPIX>
            """
        let document = try CPIXReader.parse(Array(xml.utf8), path: "keys.xml")
        let secrets = Set(document.secrets.map(\.revealed))
        #expect(
            secrets.isSuperset(of: ["112233445566778899aabbccddeeff00", "00112233445566778899AABBCCDDEEFF", "Tk0123456789abcd"]),
            "\(secrets)")
        let redaction = Redaction(secrets: document.secrets)
        #expect(redaction.redact(line).contains("IV=0XREDACTED") && !redaction.redact(line).contains("Tk0123"))
    }

    @Test("in a text, a URI's token is found and nothing beside it: past non-ASCII, before closing punctuation, in every URI")
    func bearerInText() {
        let token = "ABCDEFGH12345"
        func shown(_ text: String) -> String { Redaction.none.redact(text) }
        #expect(shown("skd://h/fps?title=Café&token=\(token)") == "skd://h/fps?title=Café&token=REDACTED")
        #expect(shown("skd://h/fps?t={x}|y&token=\(token)") == "skd://h/fps?t={x}|y&token=REDACTED")
        #expect(shown("value \(token) of 'skd://h?token=\(token)'.") == "value REDACTED of 'skd://h?token=REDACTED'.")
        #expect(shown("URI=\"skd://h?token=\(token)\",KEYFORMAT=\"x\"") == "URI=\"skd://h?token=REDACTED\",KEYFORMAT=\"x\"")
        #expect(
            shown("https://a/x.m3u8 and https://user:password123@b/y.m3u8 and https://u:secret4567@c/z")
                == "https://a/x.m3u8 and https://user:REDACTED@b/y.m3u8 and https://u:REDACTED@c/z")
        // An unsigned JWT (its last part empty) at the end of a sentence is one; three dots are a cut.
        let jwt = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyMSJ9."
        #expect(shown("token \(jwt).") == "token REDACTED.")
        #expect(Redaction.showingSecrets.redact("skd://h?token=\(token)") == "skd://h?token=\(token)")
        // Wherever a pair stands: an attribute's value, a path segment; CDNs' other names; a token as a user name.
        #expect(shown(#"#EXT-X-DEFINE:NAME="q",VALUE="token=\#(token)""#) == #"#EXT-X-DEFINE:NAME="q",VALUE="token=REDACTED""#)
        #expect(shown("https://cdn/hdnts=exp=1~acl=*~hmac=\(token)/a7.ts") == "https://cdn/hdnts=REDACTED/a7.ts")
        #expect(shown("v.m3u8?hdntl=exp=1~hmac=\(token)&x=1") == "v.m3u8?hdntl=REDACTED&x=1")
        #expect(shown("a.ts?wmsAuthSign=\(token)") == "a.ts?wmsAuthSign=REDACTED")
        #expect(shown("https://ghp_abcdefghijklmnop1234@host/x") == "https://REDACTED@host/x")
        #expect(
            shown("KEYFORMAT=\"com.apple.streamingkeydelivery\",cid=title-0001")
                == "KEYFORMAT=\"com.apple.streamingkeydelivery\",cid=title-0001")
        // A text that repeats a token 20,000 times (a segment URI in every row) is hidden whole.
        let long = (0..<20_000).map { "seg\($0).ts?token=\(token) …" }.joined(separator: "\n")
        #expect(!shown(long).contains(token))
    }

    /// Every place the clear form of a secret is read, and why. A new one fails this test until it is
    /// reviewed and listed here.
    static let reviewedReveals: [String: (count: Int, reason: String)] = [
        "Sources/SKDTemplate/Redaction.swift": (3, "a redaction learns the clear forms it hides (given, and a text's bearer tokens)"),
        "Sources/SKDPack/Apply/KeyURIs.swift": (1, "a --match group compared with the old URI's secrets, to refuse it"),
    ]

    /// The places that make report text without a redaction: each reads back what skdpack redacted when it
    /// wrote a report (and hides its bearer tokens again).
    static let reviewedReadBacks: [String: (count: Int, reason: String)] = [
        "Sources/SKDTemplate/Redaction.swift": (1, "decoding a JSON report (report merge)"),
        "Sources/SKDReports/ReportXMLReader.swift": (1, "report merge of XML reports"),
        "Sources/skdpack/Commands/ReportCommand.swift": (1, "report merge: the shards' arguments without --shard"),
    ]

    /// The command line's writers to standard output and standard error, and why each may write what it does:
    /// every other word goes through ``StandardStreams`` or the ``DiagnosticPrinter`` (`Redacted` text only).
    static let reviewedWriters: [String: (count: Int, reason: String)] = [
        "Sources/skdpack/Output/StandardStreams.swift": (2, "Redacted text only"),
        "Sources/skdpack/Output/DiagnosticPrinter.swift": (1, "Redacted text only; a diagnostic passes the run's redaction"),
        "Sources/skdpack/Output/ValidatePrinter.swift": (
            1, "findings, their messages redacted and quoted lines masked by the playlist's redaction"
        ),
        "Sources/skdpack/Output/ProgressBar.swift": (1, "counts and a bar: no input text"),
        "Sources/skdpack/Commands/CatCommand.swift": (1, "the playlist itself"),
        "Sources/skdpack/Commands/ApplyCommand.swift": (1, "the playlist itself, or its diff (redacted by the library's emitter)"),
        "Sources/skdpack/Commands/RulesCommand.swift": (1, "the rules' own text: no input"),
        "Sources/skdpack/Commands/ValidateSettings.swift": (1, "validate's report on standard output (Redacted fields)"),
        "Sources/skdpack/Commands/ReportCommand.swift": (2, "the schemas (no input), a merged report (Redacted fields)"),
    ]

    /// The places that redact text with no run's secrets (`Redaction.none`: bearer tokens only), and why the
    /// text can hold no other secret.
    static let reviewedUnknownSecrets: [String: (count: Int, reason: String)] = [
        "Sources/SKDPack/Reports/Report+Merge.swift": (2, "messages made of a merged report's own redacted fields and counts"),
        "Sources/SKDPack/Apply/KeyFormatVersion.swift": (3, "an EXT-X-VERSION line: a number"),
        "Sources/skdpack/Commands/TemplateOptions.swift": (
            2, "usage failures and the Planner's request problems, which show no value given (Planner.checked)"
        ),
        "Sources/skdpack/Commands/ReportCommand.swift": (1, "a merged report's finding, read back redacted"),
        "Sources/skdpack/Commands/TemplatesCommand.swift": (5, "the shipped templates' text, and a template file's own problems"),
        "Sources/skdpack/SKDPackCommand.swift": (1, "ArgumentParser's usage message, which echoes no String option's value"),
        "Sources/skdpack/Output/StandardStreams.swift": (1, "a write error: a path and errno's text"),
    ]

    /// How many times each source file (comments aside) writes `needle`, in the files that do.
    static func uses(of needle: String, skipping skipped: String? = nil) throws -> [String: Int] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        var found: [String: Int] = [:]
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        for file in files where file != skipped {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(
                separator: "\n")
            let count = code.components(separatedBy: needle).count - 1
            if count > 0 { found["Sources/" + file] = count }
        }
        return found
    }

    @Test("the clear form of a secret is read only in the reviewed places")
    func reveals() throws {
        let found = try Self.uses(of: ".revealed", skipping: "SKDBytes/Secret.swift")
        #expect(found == Self.reviewedReveals.mapValues(\.count), "reveals found: \(found)")
    }

    @Test("text is redacted without the run's secrets only in the reviewed places")
    func unknownSecrets() throws {
        let found = try Self.uses(of: "Redaction.none.redacted(")
        #expect(found == Self.reviewedUnknownSecrets.mapValues(\.count), "uses found: \(found)")
    }

    @Test("the command line writes to standard output and error only through the reviewed writers")
    func writers() throws {
        var found: [String: Int] = [:]
        for needle in [
            "OutputSink(fd:", "StreamOutput(fd:", ".stream(fd:", "Glibc.write(", "fputs(", "fwrite(", "Glibc.puts(", "FileHandle.",
        ] {
            for (file, count) in try Self.uses(of: needle) where file.hasPrefix("Sources/skdpack/") { found[file, default: 0] += count }
        }
        #expect(found == Self.reviewedWriters.mapValues(\.count), "writers found: \(found)")
        // Swift's print writes a String as it is: the command line never calls it.
        let declared = try Self.uses(of: "func print(")
        let swiftPrints = try Self.uses(of: "Swift.print(").filter { $0.key.hasPrefix("Sources/skdpack/") }
        #expect(swiftPrints.isEmpty, "Swift.print( found: \(swiftPrints)")
        let prints = try Self.uses(of: " print(").filter { $0.key.hasPrefix("Sources/skdpack/") && $0.value > declared[$0.key, default: 0] }
        #expect(prints.isEmpty, "print( found: \(prints)")
    }

    @Test("report text is made without a redaction only where a report is read back")
    func readBacks() throws {
        let found = try Self.uses(of: "readBack:")
        #expect(found == Self.reviewedReadBacks.mapValues(\.count), "read-backs found: \(found)")
    }
}
