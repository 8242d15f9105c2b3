import Foundation
import SKDFiles
import SKDPack
import Testing

/// The Planner turns a request into a run's options or into a problem that names the setting to change,
/// in the caller's words for it: every problem names its own setting, through the names given (no flag
/// of skdpack's unless the caller's names are its flags).
@Suite("requests: the Planner's problems name their setting")
struct PlannerTests {
    /// Names each setting so that a message shows which it named.
    static let marked = SettingNames { "<\($0.rawValue)>" }

    /// A file holding `text`, removed after `body`.
    static func withScratchFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-planner-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Requests each wrong in one way, with the setting the problem must name.
    static func wrongRequests(empty: String) -> [(ValidateRequest, Setting)] {
        var cases: [(ValidateRequest, Setting)] = []
        func request(_ change: (inout ValidateRequest) -> Void) -> ValidateRequest {
            var request = ValidateRequest()
            change(&request)
            return request
        }
        cases.append((request { $0.disabledRules = ["FPS-metod"] }, .disabledRule))
        cases.append((request { $0.maximumURILength = 0 }, .maximumURILength))
        cases.append((request { $0.maximumInitSize = -1 }, .maximumInitSize))
        cases.append((request { $0.values.values = ["entitlement_url=https://lic.example.com"] }, .values))
        cases.append((request { $0.template = "entitlment" }, .template))
        cases.append((request { ($0.template, $0.values.values) = ("entitlement", ["bad name=1"]) }, .values))
        cases.append((request { ($0.template, $0.values.values) = ("entitlement", ["entitlement_ur=https://x"]) }, .values))
        cases.append((request { ($0.template, $0.values.valueFiles) = ("entitlement", ["token=\(empty)"]) }, .valueFiles))
        cases.append((request { ($0.template, $0.values.valueFiles) = ("entitlement", ["token=/no/such/file"]) }, .valueFiles))
        cases.append((request { ($0.template, $0.values.values) = ("entitlement", ["content_id=a\"b"]) }, .values))
        cases.append((request { ($0.template, $0.values.catalog) = ("entitlement", "/no/such/catalog.csv") }, .catalog))
        cases.append((request { $0.values.catalog = "/no/such/catalog.csv" }, .catalog))
        cases.append((request { ($0.template, $0.values.pathPattern) = ("entitlement", "(?<x") }, .pathPattern))
        cases.append((request { $0.cpix = ["/no/such/keys.xml"] }, .cpix))
        cases.append((request { $0.values.match = "cid=(?<content_id>.*)" }, .match))
        return cases
    }

    @Test("every wrong request is refused naming its own setting, in the caller's words")
    func problemsNameTheirSetting() throws {
        try Self.withScratchFile("") { empty in try problemsNameTheirSetting(Self.wrongRequests(empty: empty)) }
    }

    func problemsNameTheirSetting(_ requests: [(ValidateRequest, Setting)]) throws {
        Self.expectRefused(requests) { request, names throws(RequestProblem) in _ = try Planner.validation(request, names: names) }
    }

    /// Each of `requests` refused by `plan`, the problem naming its own setting first, in the names given;
    /// and in plain words (the default names) no flag of skdpack's.
    static func expectRefused<Request>(
        _ requests: [(Request, Setting)], by plan: (Request, SettingNames) throws(RequestProblem) -> Void
    ) {
        for (request, setting) in requests {
            do {
                try plan(request, Self.marked)
                Issue.record("not refused: \(setting)")
            } catch {
                #expect(error.setting == setting, "\(error.message)")
                #expect(error.message.hasPrefix("<\(setting.rawValue)>"), "\(error.message)")
            }
            do {
                try plan(request, SettingNames())
            } catch {
                #expect(!error.message.contains("--"), "\(error.message)")
            }
        }
    }

    @Test("a request right in every way plans a run")
    func rightRequest() throws {
        var request = ValidateRequest()
        (request.template, request.values.values, request.disabledRules) =
            ("entitlement", ["entitlement_url=https://lic.example.com/fps"], ["FPS-method"])
        let options = try Planner.validation(request, names: Self.marked)
        #expect(options.templateMatcher?.definition.name == "entitlement")
        #expect(options.disabledRules.map(\.rawValue) == ["FPS-method"])
    }

    /// A value given wrongly is never shown back: without its `=`, with a bad name, with a character no URI
    /// carries, given twice, in a file; whatever the mistake, the problem's message holds no value.

    /// A value given wrongly is never shown back: without its `=`, with a bad name, with a character no URI
    /// carries, given twice, in a file; whatever the mistake, the problem's message holds no value.
    @Test("no problem shows a value given", arguments: ["s3cr3t-Token-value", "Zm9vYmFyYmF6cXV4"])
    func noValueShown(_ secret: String) throws {
        try Self.withScratchFile(secret + "\"\n") { file in
            let mistakes: [(inout ValidateRequest) -> Void] = [
                { $0.values.values = [secret] },
                { $0.values.values = ["1bad=\(secret)"] },
                { $0.values.values = ["content_id=\(secret)\"x"] },
                { $0.values.valueFiles = [file] },
                { $0.values.valueFiles = ["content_id=\(file)"] },
                { ($0.values.values, $0.values.valueFiles) = (["content_id=\(secret)"], ["content_id=\(file)"]) },
            ]
            for mistake in mistakes {
                var request = ValidateRequest()
                request.template = "entitlement"
                mistake(&request)
                do {
                    _ = try Planner.validation(request, names: SettingNames())
                    Issue.record("not refused")
                } catch let error as RequestProblem {
                    #expect(!error.message.contains(secret), "\(error.message)")
                }
            }
        }
    }

    /// Apply requests each wrong in one way, with the setting the problem must name.
    static func wrongApplyRequests() -> [(ApplyRequest, Setting)] {
        func request(_ change: (inout ApplyRequest) -> Void) -> ApplyRequest {
            var request = ApplyRequest(template: "entitlement")
            request.values.values = ["entitlement_url=https://lic.example.com/fps"]
            change(&request)
            return request
        }
        return [
            (request { $0.template = "entitlment" }, .template),
            (request { $0.titleLockWait = -1 }, .lockWait),
            (request { $0.titleLockWait = .infinity }, .lockWait),
            (request { $0.ignoredFindings = ["FPS-method"] }, .disabledRule),
            (request { $0.ignoredFindings = ["HLS-tab-charcter"] }, .disabledRule),
            (request { $0.kidFrom = "cpix" }, .kidFrom),
            (request { ($0.kidFrom, $0.cpix) = ("media", ["keys.xml"]) }, .kidFromMedia),
            (request { $0.maximumInitSize = 0 }, .maximumInitSize),
            (request { ($0.destination, $0.inputs) = (.directory("lib/out"), ["lib"]) }, .output),
            (request { ($0.destination, $0.inputs) = (.directory("lib"), ["lib/title"]) }, .output),
            (request { ($0.destination, $0.inputs) = (.directory("lib/"), ["lib"]) }, .output),
            (request { $0.values.match = "(?<content_id" }, .match),
            (request { $0.values.valueFiles = ["token"] }, .valueFiles),
        ]
    }

    @Test("every wrong apply request is refused naming its own setting, in the caller's words")
    func applyProblemsNameTheirSetting() {
        Self.expectRefused(Self.wrongApplyRequests()) { request, names throws(RequestProblem) in
            _ = try Planner.apply(request, names: names)
        }
        // Right in every way: a run's options.
        #expect((try? Planner.apply(Self.wrongApplyRequests()[1].0.with { $0.titleLockWait = 0 }, names: Self.marked)) != nil)
    }

    /// Render requests each wrong in one way, with the setting the problem must name.
    static func wrongRenderRequests() -> [(RenderRequest, Setting)] {
        func request(_ change: (inout RenderRequest) -> Void) -> RenderRequest {
            var request = RenderRequest(template: "entitlement")
            request.values.values = ["entitlement_url=https://lic.example.com/fps", "content_id=42"]
            change(&request)
            return request
        }
        return [
            (request { $0.template = "entitlment" }, .template),
            (request { $0.values.values.append("contentid=42") }, .values),
            (request { $0.kid = "0x1234" }, .kid),
            (request { $0.kid = String(repeating: "g", count: 32) }, .kid),
            // A KEYID for a template without {kid}: a value that would go nowhere.
            (
                request { ($0.template, $0.values.values, $0.kid) = ("content-id", ["content_id=42"], String(repeating: "0", count: 32)) },
                .kid
            ),
            (request { ($0.values.match, $0.oldURI) = ("cid=(?<content_id>[^&]+)", "skd://old.example.com/fps?id=7") }, .oldURI),
            (request { $0.values.catalog = "/no/such/catalog.csv" }, .catalog),
        ]
    }

    @Test("every wrong render request is refused naming its own setting, in the caller's words")
    func renderProblemsNameTheirSetting() {
        Self.expectRefused(Self.wrongRenderRequests()) { request, names throws(RequestProblem) in
            _ = try Planner.render(request, names: names)
        }
    }

    /// A render makes what apply writes for the key: the built-ins from the request (a KEYID in either case,
    /// with or without 0x, is the period's lower-case `kid`), a value missing said as apply says it.
    @Test("a render request renders the URI, or says which value is missing")
    func renderRequest() throws {
        var request = RenderRequest(template: "skd://{title_dir}/{kid}?period={key_index}")
        (request.playlist, request.keyIndex, request.kid) = ("lib/show-7/v.m3u8", 3, "0x00112233445566778899AABBCCDDEEFF")
        guard case .rendered(let rendering) = try Planner.render(request, names: Self.marked) else {
            Issue.record("no URI rendered")
            return
        }
        #expect(rendering.uri == "skd://show-7/00112233445566778899aabbccddeeff?period=3")
        // The same key id as a UUID.
        request.kid = "00112233-4455-6677-8899-AABBCCDDEEFF"
        guard case .rendered(let uuid) = try Planner.render(request, names: Self.marked) else {
            Issue.record("no URI rendered from a UUID")
            return
        }
        #expect(uuid.uri == rendering.uri)
        // Without a KEYID, the message names the setting that gives one.
        request.kid = nil
        guard case .unrendered(let noKid, _) = try Planner.render(request, names: Self.marked) else {
            Issue.record("a URI rendered without its kid")
            return
        }
        #expect(noKid.contains("give <kid>"), "\(noKid)")
        request.template = "content-id"
        guard case .unrendered(let message, _) = try Planner.render(request, names: Self.marked) else {
            Issue.record("a URI rendered without its content id")
            return
        }
        #expect(message.contains("content_id") && message.contains("<values>"))
    }

    /// A secret value given for a render shows in no message of it: its rendering's redaction hides it, and
    /// only a request that allows secrets shows it.
    @Test("a render's secrets are hidden unless the request shows them")
    func renderSecrets() throws {
        let token = "s3cr3t-Token-value-0123456789"
        var request = RenderRequest(template: "expressplay-token")
        request.values.values = ["token=\(token)"]
        for shows in [false, true] {
            request.showsSecrets = shows
            guard case .rendered(let rendering) = try Planner.render(request, names: Self.marked) else {
                Issue.record("no URI rendered")
                return
            }
            #expect(rendering.uri.contains(token))
            #expect(rendering.redaction.redact(rendering.uri).contains(token) == shows)
        }
    }
}

extension ApplyRequest {
    fileprivate func with(_ change: (inout ApplyRequest) -> Void) -> ApplyRequest {
        var changed = self
        change(&changed)
        return changed
    }
}
