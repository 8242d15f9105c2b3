import Foundation
import SKDTemplate
import Testing

@Suite("Template files")
struct TemplateFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("a full template file reads")
    func full() throws {
        let definition = try TemplateFile.parse(
            """
            name: studio
            description: Studio A's license server
            uri: "skd://{entitlement_url|strip_scheme}?cid={content_id|url}&t={token}"
            method: SAMPLE-AES
            keyformatversions: "1"
            session_keys: true
            variables:
              entitlement_url: {pattern: "https://.+", description: the server}
              content_id:
                pattern: "[a-z0-9-]+"
                default: unknown-title
              token: {secret: true, required: false}
            license:
              allow_hosts: [lic.example.com, "*.cdn.example.com"]
            """, path: "studio.yaml", fields: ["method", "keyformatversions", "session_keys"])
        #expect(definition.name == "studio")
        // The fields the caller asked for are kept as written, with their place, for the caller to check.
        #expect(definition.fields["method"]?.string == "SAMPLE-AES")
        #expect(definition.fields["method"]?.mark == YAMLMark(line: 4, column: 9))
        #expect(definition.fields["keyformatversions"]?.string == "1")
        #expect(definition.fields["session_keys"]?.bool == true)
        #expect(definition.allowHosts == ["lic.example.com", "*.cdn.example.com"])
        #expect(definition.secretNames == ["token"])
        #expect(definition.variables["content_id"]?.defaultValue == "unknown-title")
        #expect(definition.variables["token"]?.required == false)
        let uri = try definition.renderer.render(["entitlement_url": TemplateValue("https://lic.example.com/fps", source: "--var")])
        #expect(uri == "skd://lic.example.com/fps?cid=unknown-title&t=")
    }

    @Test("JSON is YAML too")
    func json() throws {
        let definition = try TemplateFile.parse(#"{"name": "j", "uri": "skd://{kid}"}"#, path: "j.json")
        #expect(definition.uri.variableNames == ["kid"])
    }

    @Test(
        "every kind of bad file is located",
        arguments: [
            ("name: x\nuri: \"skd://{id\"\n", 2, 13, "never closed"),
            ("name: x\nuri: skd://{id|zip}\n", 2, 13, "unknown filter"),
            ("name: x\nuri: \"skd://{id}\"\nsesion_keys: true\n", 3, 1, "unknown key 'sesion_keys'"),
            ("uri: \"skd://{id}\"\n", 1, 1, "needs a name"),
            ("name: x\n", 1, 1, "needs a uri"),
            // Fields the caller did not ask for are unknown keys.
            ("name: x\nuri: \"skd://{id}\"\nmethod: SAMPLE-AES\n", 3, 1, "unknown key 'method'"),
            ("name: \"x\\ny\"\nuri: \"skd://{id}\"\n", 1, 7, "not a template name"),
            ("name: \"x\\\"y\"\nuri: \"skd://{id}\"\n", 1, 7, "not a template name"),
            ("name: x\ndescription: \"a\\u0007b\"\nuri: \"skd://{id}\"\n", 2, 14, "control character"),
            ("name: x\nuri: \"skd://{id}\"\nvariables:\n  id: {default: \"a\\nb\"}\n", 4, 17, "no key URI may carry"),
            ("name: x\nuri: \"skd://{id}\"\nvariables:\n  id: {default: \"a\\\"b\"}\n", 4, 17, "no key URI may carry"),
            ("name: x\nuri: \"skd://{id}\"\nlicense:\n  allow_hosts: [\"lic.example.com\\\",x\"]\n", 4, 17, "not a host name"),
            ("name: x\nuri: \"skd://{id}\\n#EXT-X-ENDLIST\"\n", 2, 17, "may not stand in a URI"),
            ("name: x\nuri: \"skd://{id}\"\nvariables:\n  id: {pattern: \"[a-z\"}\n", 4, 7, "not a regular expression"),
            ("name: x\nuri: \"skd://{id}\"\nvariables:\n  id: {patern: \"x\"}\n", 4, 8, "unknown key 'patern'"),
            ("name: x\nuri: \"skd://{id}\"\nvariables:\n  id: {pattern: \"[a-z]+\", default: \"X1\"}\n", 4, 7, "default of id"),
            ("name: x\nuri: \"skd://{id}\"\nvariables:\n  9id: {}\n", 4, 3, "not a variable name"),
            ("name: x\nuri: \"skd://{id}\"\nlicense:\n  allow_hosts: lic.example.com\n", 4, 16, "list of host names"),
            ("name: [x\n", 1, 7, "not YAML: a [ or { is never closed"),
            ("", 1, 1, "empty"),
            ("- a\n- b\n", 1, 1, "must be a mapping"),
        ])
    func bad(text: String, line: Int, column: Int, message: String) {
        #expect {
            try TemplateFile.parse(text, path: "t.yaml")
        } throws: { error in
            let error = error as! TemplateFileError
            let ok = error.line == line && error.column == column && error.message.contains(message)
            if !ok { print("got \(error) for \(text.debugDescription)") }
            return ok
        }
    }

    @Test("the shipped templates load, render, and match templates/ byte for byte", arguments: TemplateLibrary.shippedNames)
    func shipped(name: String) throws {
        #expect(
            TemplateLibrary.shippedNames == [
                "content-id", "cpix", "entitlement", "entitlement-kid", "entitlement-rotation", "expressplay-token", "key-id",
            ])
        let onDisk = try String(contentsOf: Self.repository.appendingPathComponent("templates/\(name).yaml"), encoding: .utf8)
        #expect(TemplateLibrary.shippedText(name) == onDisk, "run scripts/generate-shipped-templates")
        let definition = try TemplateLibrary().resolve(name)
        #expect(definition.name == name)
        let values: [String: TemplateValue] = [
            "content_id": .init("title-42", source: "--var"),
            "entitlement_url": .init("https://lic.example.com/fps", source: "--var"),
            "token": .init("AbCdEf0123456789-token", source: "--var"),
            "kid": .init("0123456789abcdef0123456789abcdef", source: "built-in"),
            "key_index": .init("2", source: "built-in"),
            "cpix_uri": .init("skd://01234567-89ab-cdef-0123-456789abcdef", source: "the CPIX document"),
        ]
        let uri = try definition.renderer.render(values)
        #expect(URIEscaping.problem(withKeyURI: uri) == nil)
    }

    @Test("the library tells inline URIs, files and names apart")
    func library() throws {
        let library = TemplateLibrary()
        #expect(try library.resolve("skd://{content_id}").uri.source == "skd://{content_id}")
        #expect(try library.resolve("entitlement").name == "entitlement")
        #expect(throws: TemplateLibrary.LookupError.self) { try library.resolve("no-such-template") }
        #expect(throws: TemplateLibrary.LookupError.self) { try library.resolve("/nonexistent/t.yaml") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-templates-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: mine\nuri: \"skd://mine/{id}\"\n".write(
            to: directory.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        let found = try TemplateLibrary(searchPaths: [directory.path]).resolve("mine")
        #expect(found.uri.source == "skd://mine/{id}")
        #expect(found.path == directory.appendingPathComponent("mine.yaml").path)
    }
}
