import SKDTemplate
import Testing

@testable import SKDPack

/// The `--match` migration's byte renderer must give the URI the template's own renderer gives from the
/// match's groups, key for key, and leave to that renderer every key and template it cannot render whole.
@Suite("--match migrations: the byte renderer gives the template renderer's URI")
struct MatchedURIRendererTests {
    static let pattern = #"skd://old\.example\.com/(?<cid>[^?]*)\?kid=(?<kid>[^&]*)(&opt=(?<opt>.*))?"#

    /// Old URIs whose values need no escaping, need escaping (space, `&`, `=`, `/`, `%` with and without
    /// hex digits, `{`), are empty, or are not ASCII (left to Swift's Regex, so to the template renderer).
    static let oldURIs = [
        "skd://old.example.com/title-0001?kid=00000000000000000000000000000007",
        "skd://old.example.com/Title%20One?kid=ABCdef",
        "skd://old.example.com/a b/c?kid=x=y&opt=1/2",
        "skd://old.example.com/%4?kid=%zz&opt=%41%42",
        "skd://old.example.com/{x}?kid=[a]&opt=",
        "skd://old.example.com/?kid=",
        "skd://old.example.com/café?kid=1",
        "skd://somewhere-else/title?kid=1",
    ]

    static let templates = [
        "skd://new.example.com/fps?cid={cid}&kid={kid}",
        "skd://new.example.com/{cid|lower}/{kid|upper}",
        "skd://new.example.com/fps?cid={cid|url}&kid={kid|upper|lower}",
        "skd://{cid}?o={opt|url}",
        "skd://new.example.com/<cid>",
    ]

    @Test("same URI as the template renderer, for every template and old URI it renders", arguments: templates)
    func sameURI(template: String) throws {
        let match = try NamedPattern(Self.pattern)
        let definition = try TemplateDefinition(inline: template)
        let renderer = try #require(MatchedURIRenderer(template: definition, match: match, given: []))
        var scratch = MatchedURIRenderer.Scratch()
        var rendered = 0
        for oldURI in Self.oldURIs {
            var text = oldURI
            let fast = text.withUTF8 { renderer.render($0, scratch: &scratch) }
            let groups = match.groups(in: oldURI)
            let general = groups.flatMap { groups in
                try? definition.renderer.render { groups[$0].map { TemplateValue($0, source: "--match") } }
            }
            if let fast {
                rendered += 1
                #expect(String(decoding: fast.uri, as: UTF8.self) == general, "\(template) on \(oldURI)")
            } else {
                // It leaves a key only where the template renderer would not render it from the groups alone:
                // no match, a group that took no part, or text the byte matcher does not read.
                #expect(general == nil || !oldURI.utf8.allSatisfy { $0 < 0x80 }, "\(template) on \(oldURI)")
            }
        }
        #expect(rendered >= 3, "the byte renderer rendered only \(rendered) of the old URIs")
    }

    @Test("the content id's capture, when the template uses content_id from the match")
    func contentIDCapture() throws {
        let match = try NamedPattern(#"cid=(?<content_id>[^&]+)"#)
        let renderer = try #require(
            MatchedURIRenderer(template: try TemplateDefinition(inline: "skd://{content_id}"), match: match, given: []))
        var scratch = MatchedURIRenderer.Scratch()
        var text = "skd://old?cid=title-42&x=1"
        let captured = text.withUTF8 { bytes in
            renderer.render(bytes, scratch: &scratch).flatMap { rendered in
                renderer.contentIDCapture.flatMap { rendered.captures[$0] }.map { String(decoding: bytes[$0], as: UTF8.self) }
            }
        }
        #expect(captured == "title-42")
    }

    @Test("templates it leaves to the template renderer")
    func declined() throws {
        let match = try NamedPattern(Self.pattern)
        func made(
            _ template: String, variables: [String: VariableSpec] = [:], allowHosts: [String] = [], given: [String] = []
        ) throws
            -> Bool
        {
            var definition = try TemplateDefinition(inline: template)
            definition.variables = variables
            definition.allowHosts = allowHosts
            return MatchedURIRenderer(template: definition, match: match, given: given) != nil
        }
        #expect(try made("skd://x/{cid}"))
        // A variable that is not a group, or that --var gives (it wins over the group).
        #expect(try !made("skd://x/{cid}/{playlist}"))
        #expect(try !made("skd://x/{cid}", given: ["cid"]))
        // What the renderer checks or notes per value: a pattern, a secret; and the filter it does not do.
        #expect(try !made("skd://x/{cid}", variables: ["cid": VariableSpec(pattern: "[a-z]+")]))
        #expect(try !made("skd://x/{cid}", variables: ["cid": VariableSpec(secret: true)]))
        #expect(try !made("skd://x/{cid|strip_scheme}"))
        // The URI's host is checked against allow_hosts; a template not starting `skd:` is checked whole.
        #expect(try !made("skd://x/{cid}", allowHosts: ["x"]))
        #expect(try !made("{cid}"))
        #expect(MatchedURIRenderer(template: try TemplateDefinition(inline: "skd://x/{cid}"), match: nil, given: []) == nil)
        // A pattern the byte matcher leaves to Swift's Regex.
        #expect(
            MatchedURIRenderer(
                template: try TemplateDefinition(inline: "skd://x/{cid}"), match: try NamedPattern(#"(?=s)(?<cid>.*)"#), given: []) == nil)
    }
}
