import SKDTemplate
import SKDTestSupport
import Testing

@testable import SKDValidation

/// The scheme rules read a URI's first bytes (``URIHead``) where they lower-cased a `String` prefix: over
/// generated URIs made of the scheme rules' own pieces in every letter case, and every prefix the rules ask,
/// the head says what `hasPrefix` says of the URI and of it lower-cased.
@Suite("validate: a URI's head, as its String says")
struct URIHeadTests {
    static let prefixes: [StaticString] = ["sdk:", "skd//", "skd;", "sdk//", "ksd:", "skd.:", "skd:", "skd://", "s", "skd://ab"]
    static let pieces = ["s", "k", "d", "S", "K", "D", ":", "/", ";", ".", "h", "é", "a", "0", " ", "\u{301}"]

    @Test("generated URIs, every prefix asked")
    func sameAsString() {
        var random = SplitMix(seed: 42)
        for _ in 0..<20_000 {
            let uri = (0..<Int(random.next() % 11)).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            let head = URIHead(uri)
            let lowered = String(decoding: uri.utf8.map { $0 &- 65 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            for prefix in Self.prefixes {
                let text = prefix.description
                #expect(head.starts(with: prefix) == uri.utf8.starts(with: text.utf8), "\(uri) \(text)")
                #expect(head.startsInAnyCase(with: prefix) == lowered.utf8.starts(with: text.utf8), "\(uri) \(text) in any case")
                if uri.unicodeScalars.allSatisfy(\.isASCII) {
                    #expect(head.startsInAnyCase(with: prefix) == uri.lowercased().hasPrefix(text), "\(uri) \(text)")
                }
            }
        }
    }
}
