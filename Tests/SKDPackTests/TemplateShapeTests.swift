import SKDTemplate
import SKDTestSupport
import Testing

@testable import SKDKeys

/// `validate --template` cuts each FairPlay URI along the template's literal text: on the URI's bytes, each
/// value as short as the rest allows, as the whole match of `literal(.*?)literal…` does. Held to that
/// regular expression over generated templates (placeholders side by side, literals that repeat inside the
/// values, at the ends or not) and URIs made from them, near misses and other text.
@Suite("validate --template: a URI cut along the template's text")
struct TemplateShapeTests {
    @Test("the byte search finds what the regular expression finds")
    func sameAsRegex() throws {
        var random = SplitMix(seed: 0x5A_4FE)
        let pieces = ["skd://", "lic.example.com", "/", "?cid=", "&", "=", "-", "a", ""]
        let names = ["content_id", "kid", "key_index", "title_dir"]
        let alphabet = Array("ab/-=&?.:c0%4")
        var matched = 0
        for _ in 0..<300 {
            var template = "skd://"
            for _ in 0..<(1 + random.next() % 4) {
                template += "{\(names[Int(random.next() % UInt64(names.count))])}"
                template += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            guard let definition = try? TemplateDefinition(inline: template) else { continue }
            let matcher = try TemplateMatcher(definition: definition)
            for _ in 0..<30 {
                // A URI made by putting random text where the placeholders are, then perhaps mangled.
                var uri = ""
                var inBrace = false
                for character in template {
                    if character == "{" {
                        inBrace = true
                        uri += String((0..<(random.next() % 6)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
                    } else if character == "}" {
                        inBrace = false
                    } else if !inBrace {
                        uri.append(character)
                    }
                }
                if random.next() % 4 == 0, !uri.isEmpty {
                    uri.remove(at: uri.index(uri.startIndex, offsetBy: Int(random.next() % UInt64(uri.count))))
                }
                let expected = matcher.regexCaptures(in: uri)
                if expected != nil { matched += 1 }
                #expect(matcher.captures(in: uri) == expected, "\(template) on \(uri)")
            }
        }
        #expect(matched > 2000)
    }

    /// A URI that makes a search try every split of its values (four values, 300 places each) is answered: each
    /// piece is tried at each place once. (The regular expression takes most of a minute on it.)
    @Test("a URI of many splits is answered at once")
    func manySplits() throws {
        let matcher = try TemplateMatcher(definition: try TemplateDefinition(inline: "skd://{a}/{b}/{c}/{d}?"))
        #expect(matcher.captures(in: "skd://" + String(repeating: "/", count: 300)) == nil)
        #expect(
            matcher.captures(in: "skd://" + String(repeating: "/", count: 300) + "?") == ["", "", "", String(repeating: "/", count: 297)])
    }
}
