import HLS
import SKDPack
import SKDTestSupport
import Testing

@testable import SKDValidation

/// The two rules that follow the keys in force from period to period, FPS-key-not-rotated and
/// KEY-method-mismatch, held to a plain model of them (a dictionary of the keys in force by KEYFORMAT,
/// updated as each key tag is read) over generated key-rotated playlists: each period states any of a
/// FairPlay key, a Widevine and a PlayReady key with a KEYID from a small pool, a METHOD that is not always
/// SAMPLE-AES, or a METHOD=NONE, before one or two segments.
@Suite("validate: the keys in force, period after period")
struct KeyRuleModelTests {
    static let formats = ["urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed", "com.microsoft.playready"]

    struct Expected {
        var notRotated: [Int] = []
        var mismatch: [Int] = []
    }

    /// A playlist drawn from `seed`, with the lines the model expects each rule to report.
    static func title(seed: UInt64) -> (text: String, expected: Expected) {
        var random = SplitMix(seed: seed)
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:5", "#EXT-X-TARGETDURATION:6"]
        var expected = Expected()
        // The model: KEYFORMAT -> (METHOD, KEYID, line).
        var inForce: [String: (method: String, keyID: String?, line: Int)] = [:]
        var fairPlayLine: Int?
        var beside: Set<String> = []
        var reportedPairs: Set<[Int]> = []
        for _ in 0..<(4 + random.next() % 12) {
            var periodHasFairPlay = false
            var periodKeyIDs: [(keyID: String, line: Int)] = []
            var wrote = false
            if chance(8) {
                lines.append("#EXT-X-KEY:METHOD=NONE")
                (inForce, fairPlayLine, beside) = ([:], nil, [])
                wrote = true
            }
            for system in [0, 1, 2].shuffled(using: &random) where chance(55) {
                let method = chance(85) ? "SAMPLE-AES" : "SAMPLE-AES-CTR"
                let line = lines.count + 1
                if system == 0 {
                    lines.append(
                        "#EXT-X-KEY:METHOD=\(method),URI=\"skd://lic.example.com/fps?cid=t&k=\(random.next() % 3)\","
                            + "KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\"")
                    inForce["com.apple.streamingkeydelivery"] = (method, nil, line)
                    (periodHasFairPlay, fairPlayLine) = (true, line)
                } else {
                    let keyID = String(repeating: "0", count: 31) + String(random.next() % 4)
                    lines.append(
                        "#EXT-X-KEY:METHOD=\(method),URI=\"data:text/plain;base64,AAAA\",KEYID=0x\(chance(50) ? keyID : keyID.uppercased()),"
                            + "KEYFORMAT=\"\(formats[system - 1])\",KEYFORMATVERSIONS=\"1\"")
                    inForce[formats[system - 1]] = (method, keyID, line)
                    periodKeyIDs.append((keyID, line))
                }
                wrote = true
            }
            let segmentLine = lines.count + 2
            for _ in 0..<(1 + random.next() % 2) { lines += ["#EXTINF:6,", "s.ts"] }
            guard wrote else { continue }
            // FPS-key-not-rotated: a period with other systems' KEYIDs and no FairPlay key of its own.
            let others = Set(inForce.filter { $0.key != "com.apple.streamingkeydelivery" }.compactMap(\.value.keyID))
            if periodHasFairPlay {
                beside = others
            } else if fairPlayLine != nil, !beside.isEmpty, let rotated = periodKeyIDs.first(where: { !beside.contains($0.keyID) }) {
                expected.notRotated.append(rotated.line)
            }
            // KEY-method-mismatch: the keys in force, by line, the first against the first of another METHOD.
            let keys = inForce.values.sorted { $0.line < $1.line }
            if keys.count > 1, let first = keys.first, let other = keys.first(where: { $0.method != first.method }),
                reportedPairs.insert([first.line, other.line]).inserted
            {
                expected.mismatch.append(segmentLine)
            }
        }
        lines.append("#EXT-X-ENDLIST")
        return (lines.joined(separator: "\n") + "\n", expected)
    }

    @Test("each rule reports where the model says", arguments: 0..<4)
    func asTheModelSays(batch: UInt64) throws {
        var reported = (notRotated: 0, mismatch: 0)
        defer { #expect(reported.notRotated > 20 && reported.mismatch > 20, "the generated titles make both findings: \(reported)") }
        for seed in (batch * 150)..<(batch * 150 + 150) {
            let (text, expected) = Self.title(seed: seed)
            reported.notRotated += expected.notRotated.count
            reported.mismatch += expected.mismatch.count
            let found = try findings(text)
            let notRotated = found.filter { $0.id == FairPlayKeyNotRotatedRule.kind.id }.map(\.location.line)
            let mismatch = found.filter { $0.id == KeyMethodMismatchRule.kind.id }.map(\.location.line)
            #expect(notRotated == expected.notRotated, "seed \(seed)\n\(text)")
            #expect(mismatch == expected.mismatch, "seed \(seed)\n\(text)")
        }
    }
}
