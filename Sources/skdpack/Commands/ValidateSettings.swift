import FoundationEssentials
import Glibc
import HLS
import MP4
import SKDKeys
import SKDPack
import SKDReportModel
import SKDReports
import SKDTemplate
import SKDValidation

/// What a `validate` command line asks for: the request the library plans (``ValidateRequest``) and what the
/// command line itself does (the paths, standard output's format, the report files, the walk and the reader's
/// limits), read from the words by ``ValidateFastPath``'s table or mapped from ArgumentParser's parse, and run the same way.
struct ValidateSettings: Equatable {
    var paths: [String] = []
    var format: ValidateCommand.Format = .human
    var reports: [String] = []
    var request = ValidateRequest()
    var input = InputSettings()
}

extension ValidateSettings {
    /// Validates the playlists, as the settings say; exit status as the README says.
    func run() throws {
        let clock = RunClock()
        try reportingUsage {
            let options = try validationOptions()
            let printer = DiagnosticPrinter(redaction: options.redaction)
            let input = try StandardInput.inputs(paths)
            defer { input.close() }
            let inputs = try self.input.library(input)
            let run = ValidateRun(options: options, library: inputs)
            let report: ReportFiles?
            // Standard output in the --format asked for, and every --report file, in one pass.
            var targets = try ReportOptions.targets(reports)
            if case .report(let format) = format { targets.insert((.stream(fd: 1, name: "<stdout>"), format), at: 0) }
            do {
                report =
                    targets.isEmpty
                    ? nil : try ReportFiles(targets, tool: Report.Tool(version: SKDPackVersion.current), rules: FindingKinds.all)
            } catch {
                printer.print(error: "\(error)")
                printer.flush()
                throw ExitStatus.failure
            }
            let observer = ValidatePrinter(
                printer: printer, findings: format == .human ? FindingsPrinter(colour: isatty(1) == 1 && getenv("NO_COLOR") == nil) : nil,
                spooled: input.spooled, progress: !self.input.noProgress)
            StopSignal.install()
            let result = run.run(observer: observer, report: report, stop: { StopSignal.requested != nil }) { notDone in
                var described = clock.run(
                    command: "validate", arguments: RunClock.subcommandArguments.map { options.redaction.redacted($0) },
                    template: options.redaction.redacted(request.template),
                    shard: self.input.shard)
                if StopSignal.requested != nil, let notDone {
                    described.partial = true
                    described.notDone = notDone
                }
                return described
            }
            if result.finished { observer.finish() }
            printer.flush()
            StopSignal.exitIfRequested(done: result.done, of: result.total, printer: printer)
            switch result.status {
            case .succeeded: break
            case .findings: throw ExitStatus.findings
            case .failed: throw ExitStatus.failure
            }
        }
    }

    private func validationOptions() throws -> ValidationOptions {
        var request = self.request
        request.reader = try input.reader(request.reader)
        return try Planner.validation(request, names: .commandLine)
    }
}
