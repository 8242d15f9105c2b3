import HLS
import SKDPack
import SKDTestSupport

/// One case per `SEG` rule: media segments written box by box (``FragmentMaker``) into the folder of
/// ``KeyTruthFixtures``, beside its init segments, and playlists naming them.
enum SegmentRuleCases {
    /// 2-second fragments of 50 samples at 90 kHz, encrypted under the fixtures' key unless said otherwise.
    static func fragment(at second: Int, seconds: Int = 2, _ change: (inout FragmentMaker.Fragment) -> Void = { _ in }) -> [UInt8] {
        var fragment = FragmentMaker.Fragment(decodeTime: UInt64(second) * 90000, sampleCount: 25 * seconds, sampleDuration: 3600)
        change(&fragment)
        return FragmentMaker.segment([fragment])
    }

    static let files: [String: [UInt8]] = [
        "s0.m4s": fragment(at: 0),
        "s1.m4s": fragment(at: 2),
        "s1-late.m4s": fragment(at: 5),
        "s0-long.m4s": fragment(at: 0, seconds: 7),
        "s0-open.m4s": fragment(at: 0) { $0.startsWithSync = false },
        "s0-clear.m4s": fragment(at: 0) {
            $0.encrypted = false
            $0.group = (KeyTruthFixtures.kid, false)
        },
        "s0-rotated.m4s": fragment(at: 0) { $0.group = (KeyTruthFixtures.otherKID, true) },
        "s0-with-init.m4s": KeyTruthFixtures.initSegment + fragment(at: 0),
        "s1.ts": TransportMaker.segment(pts: 180_000),
        // 2 seconds of 50 frames a second.
        "s0-fast.m4s": FragmentMaker.segment([FragmentMaker.Fragment(decodeTime: 0, sampleCount: 100, sampleDuration: 1800)]),
        "s0-pattern.m4s": fragment(at: 0) {
            $0.group = (KeyTruthFixtures.kid, true)
            $0.groupPattern = 0x55
        },
    ]

    static let key = KeyTruthFixtures.key("skd://\(KeyTruthFixtures.kidUUID)")

    /// An fMP4 playlist under the fixtures' cbcs init segment and key: `segments` as (EXTINF, URI).
    static func playlist(target: Int = 2, independent: Bool = false, _ segments: [(Double, String)]) -> String {
        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:\(target)\n" + (independent ? "#EXT-X-INDEPENDENT-SEGMENTS\n" : "")
            + KeyTruthFixtures.map("cbcs.mp4") + "\n" + key + "\n"
            + segments.map { "#EXTINF:\($0.0),\n\($0.1)\n" }.joined() + "#EXT-X-ENDLIST\n"
    }

    /// An I-frame playlist under the fixtures' cbcs init segment and key: one I-frame segment, `uri`.
    static func iFrames(_ uri: String) -> String {
        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-I-FRAMES-ONLY\n" + KeyTruthFixtures.map("cbcs.mp4") + "\n" + key + "\n"
            + "#EXTINF:2,\n\(uri)\n#EXT-X-ENDLIST\n"
    }

    static var cases: [RuleCase] {
        let options = KeyTruthFixtures.options(segments: true)
        let good = playlist([(2, "s0.m4s"), (2, "s1.m4s")])
        return [
            RuleCase(
                rule: "SEG-unreadable", severity: .error, line: 7, column: 1, broken: playlist([(2, "missing.m4s")]),
                correct: playlist([(2, "s0.m4s")]), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-not-read", severity: .info, line: 7, column: 1,
                broken: playlist([(2, "https://cdn.example.com/s0.m4s"), (2, "https://cdn.example.com/s1.m4s")]), correct: good,
                options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-encryption-mismatch", severity: .error, line: 7, column: 1, broken: playlist([(2, "s0-clear.m4s")]),
                correct: playlist([(2, "s0.m4s")]), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-kid-mismatch", severity: .error, line: 7, column: 1, broken: playlist([(2, "s0-rotated.m4s")]),
                correct: playlist([(2, "s0.m4s")]), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-extinf-duration", severity: .warning, line: 9, column: 1,
                broken: playlist(target: 4, [(2, "s0.m4s"), (3.5, "s1.m4s")]), correct: good, options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-over-target", severity: .error, line: 7, column: 1, broken: playlist([(2, "s0-long.m4s")]),
                correct: playlist([(2, "s0.m4s")]), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-sync-start", severity: .warning, line: 7, column: 1, broken: playlist([(2, "s0-open.m4s")]),
                correct: playlist([(2, "s0.m4s")]), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-not-independent", severity: .error, line: 8, column: 1,
                broken: playlist(independent: true, [(2, "s0-open.m4s")]), correct: playlist(independent: true, [(2, "s0.m4s")]),
                options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-format-change", severity: .error, line: 9, column: 1,
                broken: playlist([(2, "s0.m4s"), (2, "s1.ts")]), correct: good, options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-iframe-not-sync", severity: .error, line: 8, column: 1, broken: iFrames("s0-open.m4s"),
                correct: iFrames("s0.m4s"),
                options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-iframe-with-init", severity: .error, line: 8, column: 1, broken: iFrames("s0-with-init.m4s"),
                correct: iFrames("s0.m4s"), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-fairplay-pattern", severity: .warning, line: 7, column: 1, broken: playlist([(2, "s0-pattern.m4s")]),
                correct: playlist([(2, "s0.m4s")]), options: options, inFixtures: true),
            RuleCase(
                rule: "SEG-timestamp-jump", severity: .error, line: 9, column: 1,
                broken: playlist([(2, "s0.m4s"), (2, "s1-late.m4s")]), correct: good, options: options, inFixtures: true),
        ]
    }
}
