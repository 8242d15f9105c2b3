import Foundation
import HLS
import SKDFiles
import SKDPack
import SKDTestSupport
import Testing

@testable import SKDValidation

/// `validate` judges the segments of a run of plain lines at once (the reader's runs, each rule's
/// `segments`): its findings, key periods and key uses are those of the line-by-line path, over generated
/// media playlists that put between a segment's EXTINF and its URI, and around runs, what breaks a run (a
/// byte range, a key, a date, a part, a map, a comment, a `{$variable}` in a title), with durations over the
/// target, fractional or not, URIs with a space,
/// read in chunks of every size, with and without a template.
@Suite("validate: a run of segments is judged as its lines are")
struct SegmentRunTests {
    static let keys = [
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=t1&kid=§",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAANHBzc2g=",KEYID=0x¶,KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#,
        #"#EXT-X-KEY:METHOD=AES-128,URI="https://k.example.com/§""#,
        "#EXT-X-KEY:METHOD=NONE",
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://§",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
    ]

    /// A media playlist drawn from `seed`.
    static func playlist(seed: UInt64) -> String {
        var random = SplitMix(seed: seed)
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func key(_ period: Int) -> String {
            pick(keys).replacingOccurrences(of: "§", with: String(period)).replacingOccurrences(
                of: "¶", with: String(repeating: "0", count: 31) + String(period % 10))
        }
        func duration() -> String {
            switch random.next() % 10 {
            case 0..<4: String(pick([4, 6, 10]))
            case 4..<8: String(format: "%.3f", 0.5 + Double(random.next() % 11_500) / 1000)
            case 8: String(format: "%.1f", 5 + Double(random.next() % 100) / 10)
            default: pick(["6.", "0", "10.000000001", "6.00000", "11.5", "10.5"])
            }
        }
        var lines = ["#EXTM3U"]
        if chance(80) { lines.append("#EXT-X-VERSION:\(pick([2, 3, 4, 5, 6, 7, 8]))") }
        if chance(30) { lines.append(#"#EXT-X-DEFINE:NAME="t",VALUE="x""#) }
        let target = pick([4, 6, 10])
        let lateTarget = chance(10)
        if !lateTarget { lines.append("#EXT-X-TARGETDURATION:\(target)") }
        if chance(20) { lines.append("#EXT-X-START:TIME-OFFSET=\(pick(["10", "-5", "1000", "3"]))") }
        if chance(10) { lines.append("#EXT-X-PART-INF:PART-TARGET=1.0") }
        if chance(10) { lines.append(#"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery""#) }
        if chance(5) { lines.append("#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8") }
        if chance(70) { for _ in 0..<(1 + random.next() % 3) { lines.append(key(0)) } }
        var offset = 0
        for segment in 0..<pick([1, 3, 20, 60, 150]) {
            switch random.next() % 100 {
            case 0..<5: lines.append("#EXT-X-DISCONTINUITY")
            case 5..<10: lines.append(key(segment))
            case 10..<13:
                lines.append(
                    String(
                        format: "#EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:%02d:%02d.000Z", segment / 60 % 60,
                        pick([segment % 60, segment * 3 % 60])))
            case 13..<15: lines.append(#"#EXT-X-MAP:URI="init.mp4""#)
            case 15..<17: lines.append("# a comment \(segment)")
            case 17: lines.append("")
            case 18 where lateTarget: lines.append("#EXT-X-TARGETDURATION:\(target)")
            case 19: lines.append("#EXT-X-ENDLIST")
            case 20: lines.append(#"#EXT-X-PART:DURATION=1.2,URI="p\#(segment).mp4""#)
            case 21: lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=3")
            default: break
            }
            lines.append("#EXTINF:\(duration()),\(pick(["", "", "title", "a,b", "x y", "{$t}"]))")
            switch random.next() % 100 {
            case 0..<6:
                lines.append("#EXT-X-BYTERANGE:1000@\(offset)")
                offset += 1000
            case 6..<10: lines.append("#EXT-X-BYTERANGE:1000")
            case 10..<13: lines.append(key(segment))
            case 13..<15: lines.append("# between")
            case 15: lines.append("#EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:00:00Z")
            default: break
            }
            lines.append(pick(["seg\(segment).ts", "media.mp4", "https://cdn.example.com/s\(segment).ts", "seg \(segment).ts"]))
            if chance(3) { lines.append("#EXT-X-MEDIA-SEQUENCE:5") }
        }
        if chance(70) { lines.append("#EXT-X-ENDLIST") }
        let newline = chance(20) ? "\r\n" : "\n"
        return lines.joined(separator: newline) + (chance(90) ? newline : "")
    }

    /// What a validation says, as the report shows it.
    static func said(_ validation: PlaylistValidation) -> [String] {
        validation.diagnostics.map { "\($0.location.line):\($0.location.column)@\($0.location.offset) \($0.id) \($0.message)" }
            + validation.keyPeriods.map { "\($0)" } + validation.keyUses.map { "\($0.uri) \($0.digest) \(String(describing: $0.evidence))" }
    }

    @Test("findings, key periods and key uses as line by line", arguments: 0..<8)
    func sameAsLineByLine(batch: UInt64) throws {
        var template = ValidateRequest()
        template.template = "key-id"
        let options = [ValidationOptions(), try Planner.validation(template, names: SettingNames())]
        for seed in (batch * 50)..<(batch * 50 + 50) {
            let bytes = Array(Self.playlist(seed: seed).utf8)
            for (index, base) in options.enumerated() {
                let chunk = [7, 64, 4096, Int.max][Int((seed + UInt64(index)) % 4)]
                var lineByLine = base
                lineByLine.readsSegmentRuns = false
                let runs = try PlaylistValidator.validate(MemorySource(bytes, maximumRead: chunk), path: "p.m3u8", options: base)
                let lines = try PlaylistValidator.validate(MemorySource(bytes, maximumRead: chunk), path: "p.m3u8", options: lineByLine)
                #expect(
                    Self.said(runs) == Self.said(lines),
                    "seed \(seed), options \(index) kinds \(runs.kind) \(lines.kind)\n\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }
}

/// A run that writes no report keeps no key periods (``ValidationOptions/recordsKeyPeriods``): what it finds,
/// and the title's key map it notes, are those of a run that keeps them, over the generated playlists of
/// ``SegmentRunTests`` with their key tags stated again before segments at random (the keys in force
/// unchanged), and over the real corpus.
@Suite("validate: a run without a report finds what a run with one finds")
struct KeyPeriodRecordTests {
    /// What a validation finds and notes for the key map.
    static func found(_ validation: PlaylistValidation) -> [String] {
        validation.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.id) \($0.message)" }
            + validation.keyUses.map { "\($0.uri) \($0.place.line) \(String(describing: $0.evidence))" }
    }

    static func same(_ bytes: [UInt8], path: String = "p.m3u8", _ base: ValidationOptions) throws -> Bool {
        var bare = base
        bare.recordsKeyPeriods = false
        let kept = try PlaylistValidator.validate(MemorySource(bytes), path: path, options: base)
        let notKept = try PlaylistValidator.validate(MemorySource(bytes), path: path, options: bare)
        return found(kept) == found(notKept) && notKept.keyPeriods.isEmpty
    }

    /// A generated playlist whose key lines are each stated again, at random, before a later segment.
    static func restated(seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed ^ 0x5EED)
        var lines: [Substring] = []
        var lastKey: Substring?
        for line in SegmentRunTests.playlist(seed: seed).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#EXT-X-KEY:") { lastKey = line }
            if line.hasPrefix("#EXTINF"), let key = lastKey, random.next() % 3 == 0 { lines.append(key) }
            lines.append(line)
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    @Test("generated playlists, key tags stated again", arguments: 0..<4)
    func generated(batch: UInt64) throws {
        let options = [
            ValidationOptions(),
            try Planner.validation(
                {
                    var r = ValidateRequest()
                    r.template = "key-id"
                    return r
                }(), names: SettingNames()),
        ]
        for seed in (batch * 100)..<(batch * 100 + 100) {
            for base in options {
                let bytes = Self.restated(seed: seed)
                #expect(try Self.same(bytes, base), "seed \(seed)\n\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// The FairPlay key stated again unchanged, then another system's key rotating alone: the FairPlay key
    /// still in force is FPS-key-not-rotated's finding, whether or not its line was stated again.
    @Test("a FairPlay key stated again, then the other key rotating alone")
    func restatedThenRotated() throws {
        let fairPlay =
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=t1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        func widevine(_ digit: Int) -> String {
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAANHBzc2g=",KEYID=0x"#
                + String(repeating: "0", count: 31) + String(digit)
                + #",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
        }
        let text = [
            "#EXTM3U", "#EXT-X-VERSION:5", "#EXT-X-TARGETDURATION:6", fairPlay, widevine(1), "#EXTINF:6,", "a.ts",
            fairPlay, widevine(1), "#EXTINF:6,", "b.ts", widevine(2), "#EXTINF:6,", "c.ts", "#EXT-X-ENDLIST", "",
        ].joined(separator: "\n")
        let validation = try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "p.m3u8", options: ValidationOptions())
        #expect(validation.diagnostics.contains { $0.id == FairPlayKeyNotRotatedRule.kind.id })
        #expect(validation.keyUses.count == 1)
        #expect(try Self.same(Array(text.utf8), ValidationOptions()))
    }

    @Test("the real corpus", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipReason)))
    func corpus() throws {
        for entry in Corpus.entries {
            let bytes = Array(try Data(contentsOf: entry.url))
            #expect(try Self.same(bytes, path: entry.file, ValidationOptions()), "\(entry.file)")
        }
    }
}
