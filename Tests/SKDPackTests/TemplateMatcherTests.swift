import SKDKeys
import SKDPack
import SKDTemplate
import Testing

@Suite("template matcher (validate --template)")
struct TemplateMatcherTests {
    static func matcher(_ name: String, pinned: [String: String] = [:]) throws -> TemplateMatcher {
        try TemplateMatcher(definition: TemplateLibrary().resolve(name), pinned: pinned)
    }

    @Test("every URI a shipped template renders matches it again, whatever the values hold", arguments: TemplateLibrary.shippedNames)
    func renderedURIsMatch(_ name: String) throws {
        let definition = try TemplateLibrary().resolve(name)
        let matcher = try TemplateMatcher(definition: definition)
        let samples: [String: [String]] = [
            "content_id": ["42", "title-42", "a b&c=d/é", "x%41y"],
            "entitlement_url": ["https://lic.example.com/fps", "https://lic.example.com:8443/a/b"],
        ]
        for index in 0..<4 {
            let values = Dictionary(
                uniqueKeysWithValues: definition.uri.variableNames.map { name in
                    let options = samples[name] ?? ["v\(index)", "value-\(index)"]
                    return (name, TemplateValue(options[index % options.count], source: "test"))
                })
            guard let uri = try? definition.renderer.render(values) else { continue }
            #expect(matcher.check(uri) == .matches, "\(uri)")
        }
    }

    @Test("a value outside its variable's pattern is named, with the pattern")
    func patternViolation() throws {
        let verdict = try Self.matcher("entitlement").check("skd://lic.example.com/fps?cid=" + String(repeating: "x", count: 300))
        guard case .mismatch(let reason) = verdict else {
            Issue.record("matched")
            return
        }
        #expect(reason.contains("content_id"))
        #expect(reason.contains("does not match its pattern"))
    }

    @Test("pinned values: the URI must be made with them")
    func pinned() throws {
        let matcher = try Self.matcher("entitlement", pinned: ["entitlement_url": "https://new.example.com/fps"])
        #expect(matcher.check("skd://new.example.com/fps?cid=42") == .matches)
        #expect(matcher.check("skd://old.example.com/fps?cid=42") != .matches)
    }

    @Test("a URI that differs only in its secret part says so, showing neither value; one that differs elsewhere shows where")
    func onlyTheSecretDiffers() throws {
        let matcher = try Self.matcher("expressplay-token", pinned: ["token": "NewTokenValue99999"])
        let prefix = "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken="
        guard case .mismatch(let reason) = matcher.check(prefix + "OldTokenValue12345") else {
            Issue.record("matched")
            return
        }
        #expect(
            reason
                == "this key URI is the one the template expressplay-token makes with token=REDACTED (a value given for the run) "
                + "but for its secret token: "
                + "the value here is another than the one given (neither is shown)")
        #expect(matcher.check(prefix + "NewTokenValue99999") == .matches)
        let entitlement = try Self.matcher("entitlement", pinned: ["entitlement_url": "https://new.example.com/fps"])
        guard case .mismatch(let other) = entitlement.check("skd://old.example.com/fps?cid=42") else { return }
        #expect(other.contains("makes skd://new.example.com/fps?cid=42, not this URI"), "\(other)")
        // A value the run gave is named so; the title's own are not.
        #expect(other.contains("(a value given for the run)"), "\(other)")
    }

    @Test("another form is a mismatch that names the template")
    func otherForm() throws {
        #expect(
            try Self.matcher("entitlement").check("skd://title-42")
                == .mismatch(
                    "this key URI does not have the form of the template entitlement (skd://{entitlement_url|strip_scheme}?cid={content_id|url})"
                ))
        // An inline template, named by its text, is named once.
        #expect(
            try Self.matcher("skd://new/{content_id}").check("skd://old/x")
                == .mismatch("this key URI does not have the form of the template skd://new/{content_id}"))
    }
}
