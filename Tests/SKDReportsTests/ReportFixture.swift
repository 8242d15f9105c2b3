import HLS
import SKDPack
import SKDReportModel
import SKDTemplate

/// A report with everything a report can hold: changes of each action, findings of each severity, and
/// text a careless writer would break on (`<`, `&`, `"`, a control character, a replaced invalid byte).
enum ReportFixture {
    static let hostileMessage = "URI \"skd://a<b>&c\" holds \u{01} and \u{FFFD} (was 0xFF)"

    static let run = Report.Run(
        command: "apply", arguments: ["--template", "entitlement", "--var", "token=<redacted>", "library"],
        template: "entitlement", startedAt: "2026-11-21T10:00:00Z", durationMilliseconds: 42)

    static var report: Report {
        Report(
            tool: Report.Tool(version: "0.1.0"), run: run,
            playlists: [
                Report.Playlist(
                    path: "library/title/video.m3u8", package: "library/title/master.m3u8", kind: .media, status: .changed,
                    changes: [
                        ApplyChange(
                            line: 2, tag: "EXT-X-VERSION", action: .rewritten, before: "#EXT-X-VERSION:3",
                            after: "#EXT-X-VERSION:5"),
                        ApplyChange(
                            line: 6, tag: "EXT-X-KEY", action: .rewritten,
                            before: #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#,
                            after:
                                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=42&t=<redacted>",KEYFORMAT="com.apple.streamingkeydelivery""#
                        ),
                        ApplyChange(
                            line: 9, tag: "EXT-X-KEY", action: .inserted, before: nil,
                            after:
                                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://lic.example.com/fps?cid=42",KEYFORMAT="com.apple.streamingkeydelivery""#
                        ),
                    ],
                    diagnostics: [
                        Report.Finding(rule: "FPS-iv", severity: .info, line: 6, column: 30, message: "an IV")
                    ],
                    keyPeriods: [
                        Report.KeyPeriod(line: 4, firstSegment: 0, startMilliseconds: 0, durationMilliseconds: 6006, keys: []),
                        Report.KeyPeriod(
                            line: 8, firstSegment: 1, startMilliseconds: 6006, durationMilliseconds: 12012,
                            keys: [
                                Report.KeyPeriod.Key(
                                    format: "com.apple.streamingkeydelivery", method: "SAMPLE-AES", uri: "skd://lic.example.com/fps?cid=42",
                                    keyID: "0123456789abcdef0123456789abcdef"),
                                Report.KeyPeriod.Key(
                                    format: "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed", method: "SAMPLE-AES",
                                    uri: "data:text/plain;base64,…", keyID: nil),
                            ]),
                    ],
                    keyURIs: [Report.KeyURI(line: 8, digest: "0f1e2d3c4b5a6978", keyID: "0123456789abcdef0123456789abcdef")]),
                Report.Playlist(
                    path: "library/title/master.m3u8", package: "library/title/master.m3u8", kind: .master, status: .failed,
                    changes: [
                        ApplyChange(
                            line: 4, tag: "EXT-X-SESSION-KEY", action: .removed,
                            before: #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#,
                            after: nil)
                    ],
                    diagnostics: [
                        Report.Finding(
                            rule: "FPS-scheme", severity: .error, line: 4, column: 45, message: Redacted(readBack: hostileMessage)),
                        Report.Finding(rule: "FPS-skd-without-slashes", severity: .warning, line: 5, column: 1, message: "skd: & no //"),
                    ],
                    declared: Report.Declared(
                        variants: [
                            Report.Declared.Variant(
                                line: 6, uri: "video.m3u8", bandwidth: 2_000_000, averageBandwidth: 1_800_000,
                                codecs: "avc1.64001f,mp4a.40.2",
                                resolution: "1280x720", frameRate: "29.970", audio: "aac")
                        ],
                        renditions: [
                            Report.Declared.Rendition(
                                line: 5, type: "AUDIO", group: "aac", name: "English <en>", uri: "audio.m3u8", channels: 2)
                        ])),
                Report.Playlist(
                    path: "library/other/index.m3u8", package: "library/other/index.m3u8", kind: .media, status: .unchanged,
                    changes: [], diagnostics: []),
            ])
    }
}
