import Foundation
import SKDKeys
import SKDPack
import SKDTestSupport
import Testing

/// What `apply` writes for a key period does not depend on the order of its lines: generated playlists
/// whose periods hold other systems' keys, a FairPlay key or none, clear periods and tags between the keys,
/// in any order, against what the rules say (a FairPlay key gets its key's number, clear periods not counted, and the KEYID of the
/// period's first other key that has one; a period with other systems' keys and no FairPlay key of its own
/// gets one after its last key, whatever FairPlay key an earlier period left in force; every other byte as
/// it was). A FairPlay key is written as soon as its URI can be rendered,
/// and a line waits for the period's end only while a key before it or an insertion after the last key may
/// still change what stands there: this is the property that holds those two ways of writing to one.
@Suite("apply: a key period's lines in any order")
struct KeyPeriodOrderTests {
    static let templates = ["skd://new.example.com/{key_index}/{kid}", "skd://new.example.com/{key_index}"]

    @Test("generated playlists: the FairPlay keys and insertions the rules give, every other line as it was", arguments: 0..<24)
    func anyOrder(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
        let template = Self.templates[seed % Self.templates.count]
        let (input, expected) = Self.playlist(&random, usesKID: template.contains("{kid}"))
        var fixture = try ApplyFixture(["t/v.m3u8": input])
        defer { fixture.remove() }
        try fixture.apply(template: template)
        #expect(fixture.ids("t/v.m3u8") == [], "seed \(seed)")
        #expect(fixture.result("t/v.m3u8") == expected, "seed \(seed):\n\(input)")
    }

    static let fairPlayFormat = #"KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#

    /// A playlist of key periods and what `apply` must make of it.
    static func playlist(_ random: inout SplitMix, usesKID: Bool) -> (input: String, expected: String) {
        var input = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6"]
        var expected = input
        var segment = 0
        // The number of the period's key (`key_index`): clear periods have none.
        var keyNumber = 0
        for index in 0..<(3 + Int(random.next() % 6)) {
            // A clear period now and then: METHOD=NONE takes every key out of force.
            if index > 0, random.next() % 5 == 0 {
                input.append("#EXT-X-KEY:METHOD=NONE")
                expected.append("#EXT-X-KEY:METHOD=NONE")
            } else {
                let kid = String(format: "%016llx%016llx", random.next(), random.next())
                var keys: [(line: String, kid: String?)] = [
                    (
                        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x\#(kid.uppercased()),KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#,
                        kid
                    )
                ]
                if random.next() % 2 == 0 {
                    keys.append(
                        (
                            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;charset=UTF-16;base64,BBBB",KEYFORMAT="com.microsoft.playready",KEYFORMATVERSIONS="1""#,
                            nil
                        ))
                }
                let hasFairPlay = random.next() % 3 != 0
                if hasFairPlay {
                    keys.append((#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old.example.com/t\#(index)",\#(fairPlayFormat)"#, nil))
                }
                keys.shuffle(using: &random)
                let newURI = "skd://new.example.com/\(keyNumber)" + (usesKID ? "/\(kid)" : "")
                keyNumber += 1
                // Tags between the keys and after them, before the period's first segment.
                var lines: [(input: String, expected: String, isKey: Bool)] = []
                for key in keys {
                    let rewritten = key.line.replacingOccurrences(
                        of: #"URI="skd://old.example.com/t\#(index)""#, with: #"URI="\#(newURI)""#)
                    lines.append((key.line, rewritten, true))
                }
                for _ in 0..<Int(random.next() % 3) {
                    let tag = ["# a comment", "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:0\(index % 10)Z", "#EXT-X-BITRATE:800"][
                        Int(random.next() % 3)]
                    lines.insert((tag, tag, false), at: Int(random.next() % UInt64(lines.count + 1)))
                }
                let lastKey = lines.lastIndex { $0.isKey }!
                for (position, line) in lines.enumerated() {
                    input.append(line.input)
                    expected.append(line.expected)
                    if position == lastKey, !hasFairPlay {
                        expected.append(#"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(newURI)",\#(fairPlayFormat)"#)
                    }
                }
            }
            for _ in 0..<(1 + Int(random.next() % 3)) {
                input += ["#EXTINF:6,", "s\(segment).m4s"]
                expected += ["#EXTINF:6,", "s\(segment).m4s"]
                segment += 1
            }
        }
        input.append("#EXT-X-ENDLIST")
        expected.append("#EXT-X-ENDLIST")
        return (input.joined(separator: "\n") + "\n", expected.joined(separator: "\n") + "\n")
    }
}
