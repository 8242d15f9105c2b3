import HLS
import SKDKeys
import SKDPack
import SKDValidation
import Testing

/// The key map as `validate` judges a title: each FairPlay URI with the KEYID of its period, over every
/// playlist of the title, in the order the master lists them.
@Suite("the key map: one FairPlay URI per key")
struct KeyMapRuleTests {
    static func kid(_ digit: Character) -> String { String(repeating: String(digit), count: 32) }

    /// A media playlist: a period per (KEYID, FairPlay URI).
    static func media(_ periods: [(keyID: String?, uri: String)]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:5", "#EXT-X-TARGETDURATION:10"]
        for (index, period) in periods.enumerated() {
            if let keyID = period.keyID {
                lines.append(
                    #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\#(keyID),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
                )
            }
            lines.append(
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(period.uri)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
            lines += ["#EXTINF:10,", "s\(index).ts"]
        }
        return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    /// The key map findings of a title of `playlists` (path, text), as `validate` makes them.
    static func findings(_ playlists: [(String, String)]) throws -> [Diagnostic] {
        let media = try playlists.map { path, text in try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: path) }
        return PackageValidator.validate(master: nil, media: media).filter { $0.id.rawValue.hasPrefix("FPS-") }
    }

    struct Case: CustomStringConvertible, Sendable {
        var description: String
        var playlists: [(String, String)]
        /// The finding expected, with its place, or none.
        var expected: (id: String, path: String, line: Int)?
    }

    static let cases: [Case] = [
        Case(
            description: "one URI, two KEYIDs in one playlist",
            playlists: [("v.m3u8", media([(kid("a"), "skd://t"), (kid("b"), "skd://t")]))], expected: ("FPS-uri-two-keys", "v.m3u8", 9)),
        Case(
            description: "one URI, two KEYIDs in two renditions (keys per track)",
            playlists: [("a.m3u8", media([(kid("a"), "skd://t")])), ("v.m3u8", media([(kid("b"), "skd://t")]))],
            expected: ("FPS-uri-two-keys", "v.m3u8", 5)),
        Case(
            description: "one KEYID, two URIs in two renditions",
            playlists: [("a.m3u8", media([(kid("a"), "skd://t/a")])), ("v.m3u8", media([(kid("a"), "skd://t/v")]))],
            expected: ("FPS-key-two-uris", "v.m3u8", 5)),
        Case(
            description: "a URI per KEYID, the same in every rendition",
            playlists: [
                ("a.m3u8", media([(kid("a"), "skd://t/0"), (kid("b"), "skd://t/1")])),
                ("v.m3u8", media([(kid("a"), "skd://t/0"), (kid("b"), "skd://t/1")])),
            ], expected: nil),
        Case(
            description: "a KEYID in the video, none in the audio, one URI: a note, nothing can tell",
            playlists: [("v.m3u8", media([(kid("a"), "skd://t")])), ("a.m3u8", media([(nil, "skd://t")]))],
            expected: ("FPS-key-map-unknown", "a.m3u8", 4)),
        Case(
            description: "no KEYID: nothing tells the keys apart, nothing is said",
            playlists: [("a.m3u8", media([(nil, "skd://t")])), ("v.m3u8", media([(nil, "skd://t"), (nil, "skd://t")]))], expected: nil),
    ]

    @Test("a title's key map is judged over all its playlists", arguments: cases)
    func title(_ test: Case) throws {
        let found = try Self.findings(test.playlists)
        guard let expected = test.expected else {
            #expect(found.isEmpty, "\(found)")
            return
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.id.rawValue == expected.id)
        #expect(found.first?.location.path == expected.path)
        #expect(found.first?.location.line == expected.line)
        #expect(found.first?.severity == (expected.id == "FPS-key-map-unknown" ? .info : .error))
    }

    @Test("the map keeps one entry per URI and key, and numbers a key met again with its first number")
    func numbers() {
        var numbers = KeyNumbers()
        let a = KeyEvidence(kind: .keyID, keyIDHex: Self.kid("a"))!
        let b = KeyEvidence(kind: .keyID, keyIDHex: Self.kid("b"))!
        #expect([numbers.number(of: a), numbers.number(of: b), numbers.number(of: nil), numbers.number(of: a)] == [0, 1, 2, 0])
        var map = KeyMap()
        let place = KeyMap.Place(playlist: "v.m3u8", line: 1)
        #expect(map.note(uri: 1, evidence: a, at: place) == nil)
        #expect(map.note(uri: 1, evidence: a, at: place) == nil)
        #expect(map.note(uri: 2, evidence: b, at: place) == nil)
        // Evidence of another kind is not compared: an old URI against a KEYID says nothing.
        let old = KeyEvidence(kind: .oldURI, digest: 99)
        #expect(map.note(uri: 1, evidence: old, at: place) == nil)
        #expect(map.entries.count == 3)
    }

    @Test("two keys whose digests are one are told apart: each met again with its own URI breaks nothing")
    func digestsShared() throws {
        // High and low words that fold into one digest.
        let one = try #require(KeyEvidence(kind: .keyID, keyIDHex: "00000000000000010000000000000000"))
        let two = try #require(KeyEvidence(kind: .keyID, keyIDHex: "0000000000000002a2598acb81de843f"))
        #expect(one != two)
        var map = KeyMap()
        for (line, (uri, key)) in [(UInt64(1), one), (2, two), (1, one), (2, two)].enumerated() {
            let conflict = map.note(uri: uri, evidence: key, at: KeyMap.Place(playlist: "v.m3u8", line: line + 1))
            #expect(conflict.map { _ in "conflict" } == nil, "line \(line + 1)")
        }
        #expect(map.note(uri: 1, evidence: two, at: KeyMap.Place(playlist: "v.m3u8", line: 5)).map { _ in "conflict" } != nil)
        #expect(map.entries.count == 2)
    }

    @Test("a KEYID attribute read in one pass is the key id its digits say, in either case; anything else is none")
    func keyIDAttributes() {
        func read(_ text: String) -> KeyEvidence? {
            Array(text.utf8).withUnsafeBytes { KeyEvidence(keyIDAttribute: $0) }
        }
        let digits = "0123456789abcdefABCDEF0123456789"
        #expect(read("0x" + digits) == KeyEvidence(kind: .keyID, keyIDHex: digits.lowercased()))
        #expect(read("0X" + digits.uppercased()) == KeyEvidence(kind: .keyID, keyIDHex: digits.lowercased()))
        #expect(read("0x" + digits)?.keyIDHex == digits.lowercased())
        let stem = String(digits.dropLast())
        let bad: [String] = [
            "0x" + stem + "g", "0x" + stem + "/", "0x" + stem + ":", "0x" + stem + "G", "0x" + stem + "@", "1x" + digits,
            "0x" + digits + "0", "0x" + stem,
        ]
        for bad in bad {
            #expect(read(bad) == nil, "\(bad)")
        }
    }
}
