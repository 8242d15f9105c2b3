import HLS
import SKDPack

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
                    ]),
                Report.Playlist(
                    path: "library/title/master.m3u8", package: "library/title/master.m3u8", kind: .master, status: .failed,
                    changes: [
                        ApplyChange(
                            line: 4, tag: "EXT-X-SESSION-KEY", action: .removed,
                            before: #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery""#,
                            after: nil)
                    ],
                    diagnostics: [
                        Report.Finding(rule: "FPS-scheme", severity: .error, line: 4, column: 45, message: hostileMessage),
                        Report.Finding(rule: "FPS-skd-without-slashes", severity: .warning, line: 5, column: 1, message: "skd: & no //"),
                    ]),
                Report.Playlist(
                    path: "library/other/index.m3u8", package: "library/other/index.m3u8", kind: .media, status: .unchanged,
                    changes: [], diagnostics: []),
            ])
    }
}
