import Foundation
import SKDTestSupport
import Testing

/// The HTML report in a real browser: `Tests/Browser/report_in_browser.py` drives Debian's chromium with
/// Selenium (both installed by `scripts/test`) over the pages of real runs, checks what a person sees
/// against the JSON report of the same run, checks that a wrong page fails those checks and that a hostile
/// title name runs nothing, and saves screenshots (under `.build/report-screenshots`).
@Suite("the HTML report in a browser")
struct BrowserReportTests {
    static let python = PackageLocation.root.appendingPathComponent(".build/browser-venv/bin/python")
    static let available =
        FileManager.default.isExecutableFile(atPath: python.path) && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    static let skipReason = "chromium, chromium-driver or Selenium (.build/browser-venv) is missing: scripts/test installs them"

    @Test(.enabled(if: available, Comment(rawValue: skipReason)))
    func reportPagesInChromium() throws {
        let shots = PackageLocation.root.appendingPathComponent(".build/report-screenshots")
        let run = try SKDPackRunner.run(
            [
                PackageLocation.root.appendingPathComponent("Tests/Browser/report_in_browser.py").path, SKDPackRunner.executable.path,
                PackageLocation.root.path, shots.path,
            ], program: Self.python)
        #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
        #expect(run.stdoutText.contains("all checks passed"))
        for name in ["migration.png", "segments.png", "hostile.png"] {
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent(name).path), "\(name)")
        }
    }
}
