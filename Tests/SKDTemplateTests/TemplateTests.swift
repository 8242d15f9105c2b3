import Foundation
import SKDTemplate
import SKDTestSupport
import Testing

@Suite("Template language")
struct TemplateTests {
    func render(_ source: String, _ values: [String: String], specs: [String: VariableSpec] = [:]) throws -> String {
        let template = try Template(source)
        return try TemplateRenderer(template: template, specs: specs)
            .render(values.mapValues { TemplateValue($0, source: "--var") })
    }

    @Test("{name} and <name> mean the same; {{ and }} are literal braces")
    func forms() throws {
        #expect(try render("skd://{content_id}", ["content_id": "title-42"]) == "skd://title-42")
        #expect(try render("skd://<content_id>", ["content_id": "title-42"]) == "skd://title-42")
        let literal = try Template("skd://x{{y}}/{id}")
        #expect(literal.segments == [.literal("skd://x{y}/"), .placeholder(.init(name: "id", filters: [], column: 14))])
        #expect(literal.variableNames == ["id"])
    }

    @Test(
        "filters",
        arguments: [
            ("skd://{v|url}", "a b&c=d/e?f", "skd://a%20b%26c%3Dd%2Fe%3Ff"),
            ("skd://{v|strip_scheme}", "https://lic.example.com/fps", "skd://lic.example.com/fps"),
            ("skd://{v|strip_scheme}", "lic.example.com/fps", "skd://lic.example.com/fps"),
            ("skd://{v|strip_scheme}", "svc+x.y-z://lic.example.com", "skd://lic.example.com"),
            // Not a scheme before "://": left as it is.
            ("skd://{v|strip_scheme}", "lic.example.com:443//fps", "skd://lic.example.com:443//fps"),
            ("skd://{v|strip_scheme}", "9p://lic.example.com", "skd://9p://lic.example.com"),
            ("skd://{v|strip_scheme}", "://lic.example.com", "skd://://lic.example.com"),
            ("skd://{v|lower}", "Title-ABC", "skd://title-abc"),
            ("skd://{v|upper}", "title-abc", "skd://TITLE-ABC"),
            ("skd://{v|strip_scheme|upper}", "https://a.example/x", "skd://A.EXAMPLE/X"),
            ("skd://x?cid={v|url}", "50%off", "skd://x?cid=50%25off"),
            ("skd://x?cid={v|url}", "already%2Fencoded", "skd://x?cid=already%2Fencoded"),
        ])
    func filters(source: String, value: String, expected: String) throws {
        #expect(try render(source, ["v": value]) == expected)
    }

    @Test("the entitlement form of Adobe's guide")
    func entitlement() throws {
        let uri = try render(
            "skd://{entitlement_url|strip_scheme}?cid={content_id|url}",
            ["entitlement_url": "https://lic.example.com:8443/fps/license", "content_id": "title/42 (HD)"])
        #expect(uri == "skd://lic.example.com:8443/fps/license?cid=title%2F42%20%28HD%29")
    }

    @Test(
        "syntax errors say where",
        arguments: [
            ("skd://{content_id", 7, "never closed"),
            ("skd://content_id}", 17, "closes no placeholder"),
            ("skd://{}", 8, "needs a variable name"),
            ("skd://{9lives}", 8, "is not a variable name"),
            ("skd://{id|base64}", 8, "unknown filter 'base64'"),
            ("skd://<id", 7, "never closed"),
            ("skd://a b/{id}", 8, "may not stand in a URI"),
            ("skd://\"{id}", 7, "may not stand in a URI"),
            ("skd://é/{id}", 7, "may not stand in a URI"),
        ])
    func syntaxErrors(source: String, column: Int, message: String) {
        #expect {
            try Template(source)
        } throws: { error in
            let error = error as! TemplateSyntaxError
            return error.column == column && error.message.contains(message)
        }
    }

    /// What a hostile content id becomes: URI characters only, never a quote, a line break or a new tag.
    @Test(
        "values with what a URI may not hold are percent-encoded",
        arguments: [
            ("#EXT-X-ENDLIST", "skd://%23EXT-X-ENDLIST"),
            ("{$x}", "skd://%7B$x%7D"),
            ("<id>", "skd://%3Cid%3E"),
            ("a b,c", "skd://a%20b,c"),
            ("日本", "skd://%E6%97%A5%E6%9C%AC"),
        ])
    func hostileValues(value: String, expected: String) throws {
        let uri = try render("skd://{id}", ["id": value])
        #expect(uri == expected)
        #expect(URIEscaping.problem(withKeyURI: uri) == nil)
        #expect(!uri.contains("\"") && !uri.contains("\n") && !uri.contains("\r") && !uri.contains(" "))
    }

    /// A quote or a control character in a value is a mistake upstream (a CSV cell quoted twice, a pasted
    /// line break): refused, naming the variable, its source and the character, never written.
    @Test(
        "values holding a quote or a control character are refused",
        arguments: [
            "a\"b", "x\",URI=\"skd://evil", "a\nb", "a\r\n#EXT-X-KEY:METHOD=NONE", "a\u{0}b", "a b\tc", "a\u{7F}", "a\u{85}b",
        ])
    func refusedValues(value: String) {
        #expect {
            try render("skd://{id}", ["id": value])
        } throws: { error in
            let message = (error as? RenderError)?.message ?? ""
            return message.contains("of id (from --var) holds") && message.contains("never carries")
        }
    }

    @Test("a 10,000-character value renders to a valid URI")
    func longValue() throws {
        let uri = try render("skd://{id}", ["id": String(repeating: "a ", count: 5000)])
        #expect(uri.count == 6 + 5000 * 4)
        #expect(URIEscaping.problem(withKeyURI: uri) == nil)
    }

    @Test("a missing value is an error naming the variable; an optional one renders empty")
    func missing() throws {
        #expect(throws: RenderError.self) { try render("skd://{content_id}", [:]) }
        do {
            _ = try render("skd://{content_id}", [:])
        } catch let error as RenderError {
            #expect(error.variable == "content_id")
            #expect(error.problem == .missingValue)
            #expect(error.message.contains("{content_id} has no value"))
        }
        let optional = ["suffix": try VariableSpec(required: false)]
        #expect(try render("skd://{id}{suffix}", ["id": "a"], specs: optional) == "skd://a")
        let defaulted = ["id": try VariableSpec(defaultValue: "fallback")]
        #expect(try render("skd://{id}", [:], specs: defaulted) == "skd://fallback")
    }

    @Test("a value breaking its pattern is an error naming variable, value and source")
    func pattern() throws {
        let specs = ["content_id": try VariableSpec(pattern: "[a-z0-9-]+")]
        do {
            _ = try render("skd://{content_id}", ["content_id": "Bad Id"], specs: specs)
            Issue.record("rendered a value that breaks its pattern")
        } catch let error as RenderError {
            #expect(error.variable == "content_id")
            #expect(error.message == "the value \"Bad Id\" of content_id (from --var) does not match its pattern [a-z0-9-]+")
        }
        #expect(try render("skd://{content_id}", ["content_id": "ok-1"], specs: specs) == "skd://ok-1")
    }

    @Test("a secret value never appears in a message")
    func secret() throws {
        let specs = ["token": try VariableSpec(pattern: "[A-Z]+", secret: true)]
        do {
            _ = try render("skd://h.example/?t={token}", ["token": "s3cret-token"], specs: specs)
            Issue.record("rendered a value that breaks its pattern")
        } catch let error as RenderError {
            #expect(!error.message.contains("s3cret"))
            #expect(error.message.contains("REDACTED"))
        }
        let redaction = Redaction(secrets: [Secret("s3cret token")])
        #expect(redaction.redact("uri skd://x?t=s3cret%20token and s3cret token") == "uri skd://x?t=REDACTED and REDACTED")
    }

    @Test("the rendered URI must be skd:")
    func scheme() throws {
        #expect(throws: RenderError.self) { try render("https://{host}/x", ["host": "a.example"]) }
        #expect(throws: RenderError.self) { try render("{uri}", ["uri": "http://x"]) }
        #expect(URIEscaping.problem(withKeyURI: "skd://a%2") != nil)
        #expect(URIEscaping.problem(withKeyURI: "sdk://a") != nil)
    }

    @Test("license URLs: skd becomes https; an id names no server; allowed hosts")
    func licenseURL() {
        #expect(
            LicenseURL.derive(fromKeyURI: "skd://lic.example.com/fps?cid=42")
                == .url("https://lic.example.com/fps?cid=42", host: "lic.example.com"))
        #expect(
            LicenseURL.derive(fromKeyURI: "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=T")
                == .url("https://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=T", host: "fp.service.expressplay.com"))
        #expect(LicenseURL.derive(fromKeyURI: "skd://title-42") == .identifier("title-42"))
        guard case .notKeyURI = LicenseURL.derive(fromKeyURI: "https://x") else {
            Issue.record("https accepted as a key URI")
            return
        }
        #expect(LicenseURL.isAllowed(host: "LIC.example.com", by: ["lic.example.com"]))
        #expect(LicenseURL.isAllowed(host: "eu.lic.example.com", by: ["*.lic.example.com"]))
        #expect(!LicenseURL.isAllowed(host: "lic.example.com.evil.test", by: ["lic.example.com", "*.example.com"]))
        #expect(LicenseURL.isAllowed(host: "anything.test", by: []))
    }

    /// The obvious reading of a key URI's server, on Unicode scalars (as RFC 3986 reads characters): the
    /// reference its reading on UTF-8 bytes is held to. (`derive` once read Characters, which differ only
    /// where a combining mark follows a delimiter.)
    static func characterDerivation(_ uri: String) -> LicenseURL.Derivation? {
        // (A URI that names nothing is refused before its server is read: FairPlayURIEmptyTests.)
        guard uri.hasPrefix("skd://"), LicenseURL.nestedScheme(in: uri) == nil, LicenseURL.emptiness(of: uri) == nil else { return nil }
        let rest = uri.unicodeScalars.dropFirst("skd://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority[...]
        let host =
            hostAndPort.first == "["
            ? String(String.UnicodeScalarView(hostAndPort.prefix { $0 != "]" })) + "]"
            : String(String.UnicodeScalarView(hostAndPort.prefix { $0 != ":" }))
        guard host.unicodeScalars.contains(".") || host.lowercased() == "localhost" || host.unicodeScalars.first == "[" else {
            return .identifier(String(String.UnicodeScalarView(authority)))
        }
        return .url("https://" + String(String.UnicodeScalarView(rest)), host: host.lowercased())
    }

    @Test("license URLs: the server read on bytes is the one read on scalars, whatever the URI holds")
    func licenseURLOnBytes() {
        var generator = SplitMix(seed: 0x11C)
        let pieces = [
            "lic", ".", "example", "COM", ":", "443", "@", "user", "[", "::1", "]", "/", "?", "#", "localhost", "LocalHost",
            "é", "É", "\u{301}", "日本", "-", "%41", "x",
        ]
        var compared = 0
        for _ in 0..<3000 {
            var uri = "skd://"
            for _ in 0..<Int.random(in: 0...7, using: &generator) { uri += pieces.randomElement(using: &generator)! }
            guard let expected = Self.characterDerivation(uri) else { continue }
            #expect(LicenseURL.derive(fromKeyURI: uri) == expected, "\(uri)")
            compared += 1
        }
        #expect(compared > 2000)
    }
}

@Suite("value patterns")
struct ValuePatternTests {
    @Test("a pattern answers each value for itself, whatever it was asked before (it remembers its last answer)")
    func answersEachValue() throws {
        let pattern = try ValuePattern("[a-z0-9-]+")
        for (value, expected) in [
            ("title-1", true), ("title-1", true), ("Title 1", false), ("Title 1", false), ("title-2", true), ("", false),
        ] {
            #expect(pattern.matches(value) == expected, "\(value)")
        }
    }
}
