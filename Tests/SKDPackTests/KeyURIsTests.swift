import SKDFiles
import SKDTemplate
import Testing

@testable import SKDKeys
@testable import SKDPack

/// A `--match` migration's keys, rendered by the one key path (`KeyURIs`), get the URI the template's own
/// renderer gives from the match's groups, key for key; a key the match does not find is refused (or kept,
/// when the template makes it already); and the content id a key takes from the match is noted. (These
/// held the byte renderer `KeyURIs` replaced to the same bar.)
@Suite("--match migrations: the key path gives the template renderer's URI")
struct KeyURIsTests {
    static let pattern = #"skd://old\.example\.com/(?<cid>[^?]*)\?kid=(?<kid>[^&]*)(&opt=(?<opt>.*))?"#

    /// Old URIs whose values need no escaping, need escaping (space, `&`, `=`, `/`, `%` with and without
    /// hex digits, `{`), are empty, are not ASCII (Swift's Regex matches them), or do not match.
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
        "skd://new.example.com/{cid|strip_scheme}/{key_index}",
    ]

    @Test("same URI as the template renderer, for every template and old URI", arguments: templates)
    func sameURI(template: String) throws {
        let match = try NamedPattern(Self.pattern)
        let definition = try TemplateDefinition(inline: template)
        let uris = KeyURIs(template: KeyTemplate(definition), variables: VariableSources(match: match), keyTruth: KeyTruth())
        var playlist = uris.forPlaylist(PlaylistIdentity(path: "t/v.m3u8"))
        var rendered = 0
        for (index, oldURI) in Self.oldURIs.enumerated() {
            var outcome = PlaylistOutcome(path: "t/v.m3u8", kind: .media)
            var text = oldURI
            let got: String? = text.withUTF8 { bytes in
                do throws(KeyURIs.Unrendered) {
                    _ = try playlist.render(KeyURIs.Key(oldURI: bytes, index: index, kid: nil, truth: nil), noting: &outcome)
                    return String(decoding: playlist.uri.array, as: UTF8.self)
                } catch {
                    return nil
                }
            }
            let groups = match.groups(in: oldURI)
            let general = groups.flatMap { groups in
                try? definition.renderer.render { name in
                    name == "key_index"
                        ? TemplateValue(String(index), source: "built-in") : groups[name].map { TemplateValue($0, source: "--match") }
                }
            }
            // (A URI that names no key, an empty cid=, is refused as validate's FPS-uri-empty would find it.)
            #expect(got == general.flatMap { LicenseURL.emptiness(of: $0) == nil ? $0 : nil }, "\(template) on \(oldURI)")
            if got != nil { rendered += 1 }
        }
        #expect(rendered >= 3, "rendered only \(rendered) of the old URIs")
    }

    @Test("the content id a key takes from the match is noted, once per distinct old URI")
    func contentIDNoted() throws {
        let uris = KeyURIs(
            template: KeyTemplate(try TemplateDefinition(inline: "skd://{content_id}")),
            variables: VariableSources(match: try NamedPattern(#"cid=(?<content_id>[^&]+)"#)), keyTruth: KeyTruth())
        var playlist = uris.forPlaylist(PlaylistIdentity(path: "t/v.m3u8"))
        var outcome = PlaylistOutcome(path: "t/v.m3u8", kind: .media)
        for (index, oldURI) in ["skd://old?cid=title-42&x=1", "skd://old?cid=title-42&x=1", "skd://old?cid=title-43"].enumerated() {
            var text = oldURI
            let repeated = try text.withUTF8 { bytes throws(KeyURIs.Unrendered) in
                try playlist.render(KeyURIs.Key(oldURI: bytes, index: index, kid: nil, truth: nil), noting: &outcome)
            }
            #expect(repeated == (index == 1), "\(oldURI)")
        }
        #expect(outcome.contentIDsFromPatterns == ["title-42", "title-43"])
    }

    @Test("another system's KEYID as {kid}: 0x and 32 hex digits in either case, lowercased; every other byte anywhere refuses it")
    func keyIDDigits() {
        let hex = Array("0123456789abcdefABCDEF".utf8)
        for position in 0..<34 {
            for byte in UInt8.min...UInt8.max {
                var text = Array("0x0123456789ABCDEFabcdef0123456789".utf8)
                text[position] = byte
                let valid =
                    (position == 0 ? byte == UInt8(ascii: "0") : position == 1 ? byte | 0x20 == UInt8(ascii: "x") : hex.contains(byte))
                var periods = KeyPeriods(keepsKid: true)
                periods.note(line: 1, segments: 0, isFairPlay: false)
                text.withUnsafeBytes { periods.note(keyID: $0) }
                #expect(periods.hasKeyID == valid, "byte \(byte) at \(position)")
                let expected = valid ? Array(String(decoding: text[2...], as: UTF8.self).lowercased().utf8) : []
                #expect(periods.kid == expected, "byte \(byte) at \(position)")
            }
        }
        // Another length is not a key id.
        var periods = KeyPeriods(keepsKid: true)
        Array("0x00".utf8).withUnsafeBytes { periods.note(keyID: $0) }
        #expect(!periods.hasKeyID && periods.kid.isEmpty)
    }

    /// A content id a `--match` group captured is refused where it is the old URI's host, a server's name,
    /// and the URI names its title in a query, over URI shapes: a user part, a port, letter case, a path, a
    /// query, a fragment; and never where the URI is `skd://{content_id}` or `skd://{content_id}/{key}` (a
    /// path alone, dots or not), or the value is anything but the host.
    @Test("a content id that is the old URI's host is refused exactly where the URI names its title in a query")
    func hostAsContentID() {
        let refused: [(String, String)] = [
            ("lic.example.com", "skd://lic.example.com/fps?cid=t-7"),
            ("lic.example.com", "skd://lic.example.com?cid=t-7"),
            ("lic.example.com", "skd://LIC.Example.com/fps?cid=t-7&kp=1"),
            ("lic.example.com", "skd://lic.example.com:8443/fps?cid=t-7"),
            ("lic.example.com:8443", "skd://lic.example.com:8443/fps?cid=t-7"),
            ("lic.example.com", "skd://user@lic.example.com/fps?cid=t-7"),
            ("www.license.com", "skd://www.license.com/getkey?KeyId=31323334"),
            ("lic.example.com", "https://lic.example.com/fps/x?cid=t-7"),
        ]
        let kept: [(String, String)] = [
            ("acme.movie-7", "skd://acme.movie-7/0"),
            ("title-2001", "skd://title-2001/0"),
            ("lic.example.com", "skd://lic.example.com"),
            ("lic.example.com", "skd://lic.example.com/fps/t-7"),
            ("lic.example.com", "skd://lic.example.com/fps#x?y"),
            ("lic.example.com", "skd://lic.example.com/fps?"),
            ("drmtoday", "skd://drmtoday?assetid=vod2live"),
            ("t-7", "skd://lic.example.com/fps?cid=t-7"),
            ("example.com", "skd://lic.example.com/fps?cid=t-7"),
            ("lic.example.co", "skd://lic.example.com/fps?cid=t-7"),
        ]
        for (value, uri) in refused { #expect(Self.problem(value, uri) != nil, "\(value) from \(uri)") }
        for (value, uri) in kept { #expect(Self.problem(value, uri) == nil, "\(value) from \(uri)") }
        // The message names the value and suggests the query's group.
        let message = Self.problem("lic.example.com", "skd://lic.example.com/fps?cid=t-7") ?? ""
        #expect(
            message.contains("captured lic.example.com, the old key URI's host (a server's name)")
                && message.contains("[?&]cid=(?<content_id>[^&]+)"))
    }

    /// A content id that is a whole segment of the old URI's path is refused exactly where the URI names its
    /// title in its query (`cid=`, `content_id=`, `assetId=` …, letter case aside, with a value): the newcomer's
    /// `skd://[^/]+/(?<content_id>[^?&]+)` over the entitlement form captured `fps` for every title. A path that
    /// holds the title (`skd://lic/t-7?token=…`), a partial segment, or a query without a title is kept.
    @Test("a content id that is a part of the old URI's path is refused exactly where the URI names its title in a query")
    func pathPartAsContentID() {
        let refused: [(String, String)] = [
            ("fps", "skd://lic.example.com/fps?cid=show-s01e01"),
            ("fps", "skd://lic.example.com/v1/fps?cid=t-7&kid=1"),
            ("v1", "skd://lic.example.com/v1/fps?CID=t-7"),
            ("getkey", "skd://lic.example.com/getkey?assetId=t-7#x"),
            ("fps", "skd://lic.example.com/fps?x=1&content_id=t-7"),
        ]
        let kept: [(String, String)] = [
            ("t-7", "skd://lic.example.com/t-7?token=abcdefgh"),
            ("fp", "skd://lic.example.com/fps?cid=t-7"),
            ("fps", "skd://lic.example.com/fps"),
            ("fps", "skd://lic.example.com/fps?cid="),
            ("fps", "skd://lic.example.com/fps?kid=1"),
            ("fps", "skd://lic.example.com/x#/fps?cid=t-7"),
            ("t-7", "skd://lic.example.com/fps?cid=t-7"),
            // The path part is the title's own id; `asset` names a rendition as often as a title.
            ("movie-a", "skd://keys.example.com/movie-a?cid=movie-a"),
            ("movie-a", "skd://keys.example.com/movie-a?asset=hd"),
        ]
        for (value, uri) in refused { #expect(Self.problem(value, uri) != nil, "\(value) from \(uri)") }
        for (value, uri) in kept { #expect(Self.problem(value, uri) == nil, "\(value) from \(uri)") }
        let message = Self.problem("fps", "skd://lic.example.com/fps?cid=t-7") ?? ""
        #expect(message.contains("captured fps, a part of the old key URI's path") && message.contains("[?&]cid=(?<content_id>[^&]+)"))
    }

    /// A content id that holds the query's next parameter (`bravo&period=0`, the second newcomer trial's greedy
    /// `cid=(?<content_id>.+)`) is refused as one that holds a query; an `&` in an id without `name=` is kept.
    @Test("a content id that holds the query's next parameter is refused")
    func nextParameterInContentID() {
        for value in ["bravo&period=0", "t-7&kid=abc&x=1", "a&X_Y-2=1"] {
            #expect(
                Self.problem(value, "skd://lic.example.com/fps?cid=\(value)")?.contains("holds a URI's scheme or query") == true, "\(value)"
            )
        }
        for value in ["tom&jerry", "a&", "a&=1", "a&b"] { #expect(Self.problem(value, "skd://\(value)") == nil, "\(value)") }
    }

    static func problem(_ value: String, _ uri: String) -> String? {
        Array(value.utf8).withUnsafeBufferPointer { value in
            Array(uri.utf8).withUnsafeBufferPointer { uri in
                KeyURIs.uriInContentID(value, oldURI: uri, pattern: "p", names: SettingNames())
            }
        }
    }
}
