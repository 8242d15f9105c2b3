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

/// What a `validate` run is asked to do, as plain values: read from the command line's words by
/// ``ValidateFastPath``'s table (whether ArgumentParser has checked them first or not), and run the same way.
struct ValidateSettings: Equatable {
    var paths: [String] = []
    var format: ValidateCommand.Format = .human
    var reports: [String] = []
    var disabledRules: [String] = []
    var warningsAsErrors = false
    var maxURILength = ValidationOptions().maximumURILength
    var template: String?
    var variables: [String] = []
    var variableFiles: [String] = []
    var catalog: String?
    var pathPattern: String?
    var allowHosts: [String] = []
    var media = false
    var segments = false
    var cpix: [String] = []
    var maxInitSize = InitSegmentFile.defaultLimit
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
                    template: options.redaction.redacted(template),
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
        var options = ValidationOptions()
        // (The rules' ids are gathered only to check a --disable: start-up pays for what a run uses.)
        let known = disabledRules.isEmpty ? [] : Set(RuleRegistry.validationKinds.map(\.id))
        for rule in disabledRules {
            guard known.contains(DiagnosticID(rawValue: rule)) else {
                let nearest = NearestName.nearest(to: rule, in: known.map(\.rawValue).sorted()).map { "; did you mean \($0)?" } ?? ""
                throw UsageFailure("--disable \(rule): no such rule\(nearest) (skdpack rules lists them)")
            }
            options.disabledRules.insert(DiagnosticID(rawValue: rule))
        }
        guard maxURILength > 0 else { throw UsageFailure("--max-uri-length must be a positive number of bytes") }
        options.maximumURILength = maxURILength
        options.warningsAsErrors = warningsAsErrors
        options.reader = try input.reader(options.reader)
        guard maxInitSize > 0 else { throw UsageFailure("--max-init-size must be positive") }
        options.checksMedia = media
        options.checksSegments = segments
        options.keyTruth = KeyTruth(
            documents: try KeyTruthOptions.documents(cpix), initSegments: InitSegmentStore(limit: maxInitSize))
        var pinned: [String: String] = [:]
        let given = try TemplateOptions.given(variables: variables, files: variableFiles)
        for (name, value) in given { pinned[name] = value }
        let fromFiles = TemplateOptions.names(ofFiles: variableFiles)
        options.fromFiles = fromFiles
        options.allowHosts = allowHosts
        if let template {
            let definition = try TemplateOptions.keyTemplate(of: template).definition
            for name in pinned.keys where !definition.uri.variableNames.contains(name) {
                throw UsageFailure(
                    "\(fromFiles.contains(name) ? "--var-file" : "--var") \(name): the template \(definition.name) has no variable \(name)"
                        + (NearestName.nearest(to: name, in: definition.uri.variableNames).map { "; did you mean \($0)?" } ?? "")
                        + " (its variables: \(definition.uri.variableNames.joined(separator: ", ")))"
                )
            }
            do {
                options.templateMatcher = try TemplateMatcher(definition: definition, pinned: pinned, names: .commandLine)
            } catch {
                throw UsageFailure("--template \(template): \(error)")
            }
            options.allowHosts += definition.allowHosts
        } else if !pinned.isEmpty {
            throw UsageFailure("--var needs --template: the values are checked against the keys it makes")
        }
        if catalog != nil || pathPattern != nil {
            guard template != nil else {
                throw UsageFailure(
                    "\(catalog != nil ? "--catalog" : "--path-pattern") needs --template: the values are checked against the keys it makes")
            }
            options.titleValues = try TemplateOptions.sources(given: [], catalog: catalog, pathPattern: pathPattern, match: nil)
        }
        return options
    }
}
