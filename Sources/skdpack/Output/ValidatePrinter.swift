import Glibc
import HLS
import SKDPack
import SKDValidation

/// What `validate` tells as it goes: the human form of each playlist's findings on standard output (when
/// asked for: a report goes there otherwise), notes and a progress bar on standard error.
final class ValidatePrinter: ValidateObserver {
    private let printer: DiagnosticPrinter
    private var findings: FindingsPrinter?
    private var sink = OutputSink(fd: 1, path: "<stdout>")
    /// The file standard input was spooled to, for the lines of a playlist shown as `-`.
    private let spooled: String?
    private let showsProgress: Bool
    /// Made with the first progress, when the total is known.
    private var progressBar: ProgressBar?
    /// Where standard output carries a report: the playlists and findings counted, for the summary line that
    /// goes to standard error then (a CI log shows what the run found, the report its details).
    private var playlists = 0
    private var counts: [Severity: Int] = [:]
    /// Inputs and playlists that could not be read: said once each, and counted in the summary.
    private var notRead = 0

    init(printer: DiagnosticPrinter, findings: FindingsPrinter?, spooled: String?, progress: Bool) {
        self.printer = printer
        self.findings = findings
        self.spooled = spooled
        self.showsProgress = progress
    }

    func note(_ message: String) { printer.print(error: message) }

    func notRead(_ problem: IOError) {
        notRead += 1
        note(problem.description)
    }

    func validated(_ validation: PlaylistValidation) {
        if findings == nil {
            playlists += 1
            for diagnostic in validation.diagnostics { counts[diagnostic.severity, default: 0] += 1 }
        }
        do {
            try findings?.print(validation, readingFrom: spooled, to: &sink)
        } catch {
            printer.print(error: "\(error)")
        }
    }

    func progress(done playlists: Int, of total: Int) {
        if progressBar == nil { progressBar = ProgressBar(total: total, enabled: showsProgress, printer: printer) }
        progressBar?.advance(by: playlists)
    }

    /// The progress bar cleared, and the human form's summary line.
    func finish() {
        progressBar?.finish()
        if findings == nil {
            printer.print(message: printer.redaction.redacted(FindingsPrinter.summary(playlists: playlists, counts, notRead: notRead)))
        }
        do {
            try findings?.finish(to: &sink, notRead: notRead)
            try sink.flush()
        } catch {
            printer.print(error: "\(error)")
        }
    }
}
