import HLS
import SKDReportModel

/// The report as JUnit XML, the format CI servers show as test results: one test case per playlist, one
/// failure per error-severity finding (warnings and notes go to the case's system-out).
public enum JUnitReport {
    public static func encode(_ report: Report) throws -> [UInt8] {
        let xml = try XMLDocumentWriter()
        let failing = report.playlists.filter { $0.diagnostics.contains { $0.severity == .error } }.count
        let seconds = String(Double(report.run.durationMilliseconds) / 1000)
        try xml.startDocument()
        try xml.startElement("testsuites")
        try xml.attribute("name", "skdpack \(report.run.command)")
        try xml.attribute("tests", report.playlists.count)
        try xml.attribute("failures", failing)
        try xml.attribute("time", seconds)
        try xml.startElement("testsuite")
        try xml.attribute("name", "skdpack \(report.run.command)")
        try xml.attribute("tests", report.playlists.count)
        try xml.attribute("failures", failing)
        try xml.attribute("errors", 0)
        try xml.attribute("time", seconds)
        try xml.attribute("timestamp", report.run.startedAt)
        for playlist in report.playlists {
            try xml.startElement("testcase")
            // The class is the package, as CI servers group test cases by class: a title's playlists together.
            try xml.attribute("classname", playlist.package)
            try xml.attribute("name", playlist.path)
            for finding in playlist.diagnostics where finding.severity == .error {
                try xml.startElement("failure")
                try xml.attribute("message", "\(finding.message) [\(finding.rule)]")
                try xml.attribute("type", finding.rule)
                try xml.text("\(playlist.path):\(finding.line):\(finding.column): error: \(finding.message) [\(finding.rule)]")
                try xml.endElement()
            }
            let others = playlist.diagnostics.filter { $0.severity != .error }
            if !others.isEmpty {
                let lines = others.map {
                    "\(playlist.path):\($0.line):\($0.column): \($0.severity.rawValue): \($0.message) [\($0.rule)]"
                }
                try xml.element("system-out", text: lines.joined(separator: "\n"))
            }
            try xml.endElement()
        }
        try xml.endElement()
        try xml.endElement()
        return try xml.finish()
    }
}
