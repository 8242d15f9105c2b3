import Foundation
import HLS
import SKDPack
import SKDReportCheck
import SKDReportModel
import SKDReports
import SKDTemplate
import SKDTestSupport
import Testing

/// The promise "reports follow their published schemas", as a property: reports generated with every rule
/// of `skdpack rules`, every field a report can carry, and paths and messages made of what file names and
/// playlists really hold, are valid against the XSD and the JSON Schema; SARIF's artifact locations are
/// URI references that decode back to the path; JUnit names each test case's class after its package.
@Suite("reports follow their schemas (generated)")
struct ReportSchemaPropertyTests {
    static let cases = 200
    static let xsd = try! XMLSchemaValidator(xsd: ReportSchemas.xsd)

    @Test("every generated report is valid against the XSD and the JSON Schema, and every rule id occurs")
    func schemas() throws {
        var rules = Set<String>()
        for seed in 0..<UInt64(Self.cases) {
            var generator = ReportGenerator(seed: seed)
            let report = generator.report()
            rules.formUnion(report.playlists.flatMap { (playlist: Report.Playlist) in playlist.diagnostics.map(\.rule) })
            let xml = try ReportXML.encode(report)
            #expect(Self.xsd.problems(in: xml) == [], "seed \(seed): the XML report breaks the XSD")
            let json = try ReportJSON.encode(report)
            #expect(
                try JSONSchemaCheck(schema: ReportSchemas.jsonSchema).problems(in: json) == [],
                "seed \(seed): the JSON report breaks the JSON Schema")
            #expect(try ReportJSON.decode(json) == report, "seed \(seed)")
        }
        let missing = Set(FindingKinds.all.map(\.id.rawValue)).subtracting(rules)
        #expect(missing.isEmpty, "rules no generated report carried: \(missing.sorted())")
    }

    @Test("SARIF: each artifact location is an RFC 3986 URI reference that decodes to the playlist's path")
    func sarifLocations() throws {
        for seed in 0..<UInt64(Self.cases) {
            var generator = ReportGenerator(seed: seed)
            let report = generator.report()
            let bytes = try SARIFReport.encode(report, rules: FindingKinds.all)
            let log = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let results = try #require(((log["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
            let uris = results.compactMap { (result: [String: Any]) -> String? in
                let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
                return (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
            }
            let paths = report.playlists.flatMap { playlist in playlist.diagnostics.map { _ in playlist.path } }
            #expect(uris.count == paths.count)
            for (uri, path) in zip(uris, paths) {
                #expect(Self.isURIReference(uri), "seed \(seed): \(uri) is not a URI reference")
                #expect(uri.removingPercentEncoding == Optional(path), "seed \(seed): \(uri) does not decode to \(path)")
            }
        }
    }

    @Test("JUnit: one test case per playlist, its class the playlist's package, well-formed")
    func junitClasses() throws {
        for seed in 0..<UInt64(Self.cases) {
            var generator = ReportGenerator(seed: seed)
            let report = generator.report()
            let bytes = try JUnitReport.encode(report)
            #expect(XMLSchemaValidator.wellFormednessProblem(in: bytes) == nil, "seed \(seed)")
            let text = String(decoding: bytes, as: UTF8.self)
            let classes = text.matches(of: /<testcase classname="([^"]*)"/).map { String($0.output.1) }
            #expect(classes.count == report.playlists.count)
            // One class per package, the same for the playlists of one package, and none shared by two.
            for (index, playlist) in report.playlists.enumerated() where index < classes.count {
                for (other, otherPlaylist) in report.playlists.enumerated() where other < classes.count {
                    #expect(
                        (classes[index] == classes[other]) == (playlist.package == otherPlaylist.package),
                        "seed \(seed): \(playlist.package) and \(otherPlaylist.package) as \(classes[index]), \(classes[other])")
                }
            }
        }
    }

    /// Only URI characters (RFC 3986 unreserved, reserved, `%`), each `%` followed by two hex digits.
    static func isURIReference(_ text: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            guard allowed.contains(byte) else { return false }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else { return false }
            }
        }
        return true
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// Reports as runs make them, drawn from a seed: every rule of the catalogue in turn, each severity, each
/// status and kind, changes of each action with and without key truth, shards and partial merges, and
/// paths and messages holding spaces, `%`, `#`, `?`, markup characters, non-ASCII and control characters.
struct ReportGenerator {
    /// Generated text as a report holds it (hostile on purpose: markup, quotes, controls).
    func shown(_ text: String) -> Redacted { Redacted(readBack: text) }

    var random: SplitMix
    let seed: UInt64
    static let kinds = FindingKinds.all
    static let pathParts = ["title-42", "My Movie (2024)", "séries", "a%20b", "50% off", "#1", "why?", "a&b<c>\"d\"", "v1.2", "日本語", "x y"]
    static let texts = ["", "plain", "URI \"skd://a<b>&c\"", "tab\there", "bell \u{07}", "line\nbreak", "é€😀", "]]> --> <!--"]

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix(seed: seed &* 0x9E37_79B9 &+ 1)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func path() -> String {
        (0..<(1 + Int(random.next() % 3))).map { _ in pick(Self.pathParts) }.joined(separator: "/")
    }

    mutating func report() -> Report {
        var playlists: [Report.Playlist] = []
        // Every rule of the catalogue occurs in the first reports: seed k carries rules k*8 ..< k*8+8.
        var ruleIndex = Int(seed) * 8
        for _ in 0..<(1 + Int(random.next() % 4)) {
            let package = path() + "/master.m3u8"
            for _ in 0..<(1 + Int(random.next() % 3)) {
                var findings: [Report.Finding] = []
                for _ in 0..<Int(random.next() % 4) {
                    let kind = ruleIndex < Self.kinds.count * 2 ? Self.kinds[ruleIndex % Self.kinds.count] : pick(Self.kinds)
                    ruleIndex += 1
                    findings.append(
                        Report.Finding(
                            rule: kind.id.rawValue, severity: pick([.error, .warning, .info]), line: 1 + Int(random.next() % 100_000),
                            column: 1 + Int(random.next() % 500), message: shown(pick(Self.texts))))
                }
                playlists.append(
                    Report.Playlist(
                        path: chance(30) ? package : path() + "/" + pick(Self.pathParts) + ".m3u8", package: package,
                        kind: pick([.master, .media, .mixed, .unknown]), status: pick([.changed, .unchanged, .passed, .failed]),
                        changes: (0..<Int(random.next() % 3)).map { _ in change() }, diagnostics: findings,
                        measured: chance(30) ? measured() : nil, declared: chance(30) ? declared() : nil,
                        keyPeriods: chance(30) ? keyPeriods() : nil,
                        keyURIs: chance(30)
                            ? (0..<Int(random.next() % 3)).map { _ in
                                Report.KeyURI(
                                    line: 1 + Int(random.next() % 100_000),
                                    digest: chance(25) ? nil : String(format: "%016llx", random.next()),
                                    keyID: chance(50) ? "0123456789abcdef0123456789abcdef" : nil)
                            } : nil))
            }
        }
        let shards = 1 + Int(random.next() % 8)
        let run = Report.Run(
            command: pick(["apply", "validate"]), arguments: [shown(pick(Self.texts)), "--var", "token=<redacted>"],
            template: chance(50) ? shown(pick(["entitlement", "skd://{content_id}", pick(Self.texts)])) : nil,
            startedAt: "2026-11-24T20:00:00Z", durationMilliseconds: Int(random.next() % 100_000),
            shard: chance(30) ? "\(random.next() % UInt64(shards))/\(shards)" : nil, partial: chance(20) ? true : nil,
            missingShards: chance(20) ? ["1/\(shards + 1)"] : nil, notDone: chance(20) ? 1 + Int(random.next() % 500) : nil)
        return Report(tool: Report.Tool(version: pick(["0.1.0", "0.1.0-dev"])), run: run, playlists: playlists)
    }

    /// What --segments measures, with and without its optional values, segments named by any text.
    mutating func measured() -> Report.Measured {
        let full = chance(60)
        return Report.Measured(
            segmentsRead: Int(random.next() % 5000), segmentsNotMeasured: Int(random.next() % 3), bytesRead: Int(random.next() % 1_000_000),
            durationMilliseconds: Int(random.next() % 10_000_000), peakBitRate: full ? Int(random.next() % 20_000_000) : nil,
            averageBitRate: full ? Int(random.next() % 20_000_000) : nil,
            codecs: (0..<Int(random.next() % 3)).map { _ in pick(["avc1.64001f", "mp4a.40.2", "ec-3", pick(Self.texts)]) },
            resolution: full ? pick(["1280x720", pick(Self.texts)]) : nil, channels: full ? Int(random.next() % 16) : nil,
            segments: (0..<Int(random.next() % 4)).map { _ in
                Report.Measured.Segment(
                    line: 1 + Int(random.next() % 100_000), uri: shown(pick(Self.texts + [path()])),
                    durationMilliseconds: Int(random.next() % 20_000),
                    bytes: Int(random.next() % 5_000_000), bitRate: Int(random.next() % 20_000_000),
                    extinfMilliseconds: chance(70) ? Int(random.next() % 20_000) : nil)
            })
    }

    /// A master's variants and renditions, with and without their optional values. (An empty URI of a
    /// rendition or key is no URI: XML cannot tell them apart.)
    mutating func declared() -> Report.Declared {
        let texts = Self.texts.filter { !$0.isEmpty }
        return Report.Declared(
            variants: (0..<Int(random.next() % 4)).map { _ in
                let full = chance(60)
                return Report.Declared.Variant(
                    line: 1 + Int(random.next() % 1000), uri: shown(pick(Self.texts + [path()])),
                    bandwidth: full ? Int(random.next() % 20_000_000) : nil,
                    averageBandwidth: full ? Int(random.next() % 20_000_000) : nil,
                    codecs: full ? pick(["avc1.64001f,mp4a.40.2", pick(Self.texts)]) : nil,
                    resolution: full ? pick(["1280x720", pick(Self.texts)]) : nil, frameRate: full ? pick(["29.970", "25"]) : nil,
                    audio: full ? pick(Self.texts) : nil)
            },
            renditions: (0..<Int(random.next() % 3)).map { _ in
                let full = chance(60)
                return Report.Declared.Rendition(
                    line: 1 + Int(random.next() % 1000), type: pick(["AUDIO", "SUBTITLES", pick(Self.texts)]), group: pick(Self.texts),
                    name: full ? shown(pick(Self.texts)) : nil, uri: full ? shown(pick(texts + [path()])) : nil,
                    channels: full ? Int(random.next() % 16) : nil)
            })
    }

    /// Key periods: clear ones, and ones with keys of any system, with and without URI and key id.
    mutating func keyPeriods() -> [Report.KeyPeriod] {
        let texts = Self.texts.filter { !$0.isEmpty }
        return (0..<Int(random.next() % 4)).map { index in
            Report.KeyPeriod(
                line: 1 + Int(random.next() % 100_000), firstSegment: index * 100, startMilliseconds: index * 600_000,
                durationMilliseconds: Int(random.next() % 600_000),
                keys: (0..<Int(random.next() % 3)).map { _ in
                    Report.KeyPeriod.Key(
                        format: pick(["com.apple.streamingkeydelivery", "identity", pick(Self.texts)]),
                        method: pick(["SAMPLE-AES", "NONE", pick(Self.texts)]),
                        uri: chance(70) ? shown(pick(texts + ["skd://x"])) : nil,
                        keyID: chance(50) ? "0123456789abcdef0123456789abcdef" : nil)
                })
        }
    }

    mutating func change() -> ApplyChange {
        let action = pick([ApplyChange.Action.rewritten, .inserted, .removed])
        let truth = chance(30)
        return ApplyChange(
            line: 1 + Int(random.next() % 1000), tag: pick(["EXT-X-KEY", "EXT-X-SESSION-KEY", "EXT-X-VERSION"]), action: action,
            before: action == .inserted ? nil : shown(pick(Self.texts)), after: action == .removed ? nil : shown(pick(Self.texts)),
            kid: truth ? "0123abcd-0000-4000-8000-00000000000\(random.next() % 10)" : nil,
            kidSource: truth ? pick([.cpix, .media]) : nil, kidFile: truth ? path() : nil)
    }
}
