import ArgumentParser
import FoundationEssentials
import Glibc
import HLS
import MP4
import SKDPack
import SKDReports
import SKDTemplate

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check playlists before they are published: HLS grammar, keys, and FairPlay key lines.",
        discussion: """
            Every playlist given, or found under a directory given, is read in one streaming pass; each \
            finding is printed as path:line:col: severity: message [RULE] with the line and a caret. \
            `skdpack rules` lists the rules. Exit status: 0 no errors, 1 errors found, 2 an input could not \
            be read (or held no playlist).

            Key truth: --media reads each init segment EXT-X-MAP names (once per file) and checks the keys \
            against it (MEDIA rules: cbcs for FairPlay, the KID a key names against the default KID, clear \
            against encrypted); --cpix checks each FairPlay key against the key server's document for its \
            track (from the master) and key period (CPIX rules). --segments (implies --media) reads every local \
            media segment, fMP4 or MPEG-TS, from its boxes or its two ends (never its sample data), and checks \
            what the playlist says of it (SEG rules): encryption and key ids, duration against EXTINF and the \
            target duration, a sync sample at the start, timestamps running on between segments.

            Examples:
              skdpack validate examples/library
              skdpack validate --disable FPS-iv --warnings-as-errors \\
                  examples/library/multi-drm-title/master.m3u8
              skdpack validate --format junit examples/library/ > validate.junit.xml
              skdpack validate --shard 2/8 --format json examples/library/ > shard-2.json
              skdpack validate --template entitlement-rotation \\
                  --var entitlement_url=https://new-lic.example.com/fps \\
                  --allow-host new-lic.example.com examples/library/
              skdpack validate --media --cpix examples/key-truth/keys.xml \\
                  examples/key-truth/title/
              skdpack validate --segments examples/segments/
            """
    )

    /// What standard output gets: findings for people, or a report in any of the report formats (the list
    /// is `ReportFormat`'s: a format added there is a `--format` here).
    enum Format: ExpressibleByArgument, Equatable {
        case human
        case report(ReportFormat)

        init?(argument: String) {
            if argument == "human" {
                self = .human
            } else if let format = ReportFormat(rawValue: argument) {
                self = .report(format)
            } else {
                return nil
            }
        }

        static var allValueStrings: [String] { ["human"] + ReportFormat.allCases.map(\.rawValue) }
        static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
        var defaultValueDescription: String { "human" }
    }

    @Argument(help: "Playlists, directories of playlists, or - for standard input.")
    var paths: [String] = []

    @Option(help: "Output format: human, or the report in that format (schemas from `skdpack report schema`).")
    var format: Format = .human

    @Option(help: ArgumentHelp(ReportOptions.help, valueName: "FILE"), completion: Completions.reportFile)
    var report: [String] = []

    @Option(
        name: .customLong("disable"), help: ArgumentHelp("Turn off a rule (repeatable).", valueName: "RULE"),
        completion: Completions.validationRule)
    var disabledRules: [String] = []

    @Flag(help: "Count warnings as errors (and fail on them).")
    var warningsAsErrors = false

    @Option(help: "The longest FairPlay key URI accepted, in bytes (FPS-uri-length).")
    var maxURILength = ValidationOptions().maximumURILength

    @Option(
        help: "Check that every FairPlay key is one this template makes (a shipped name, a file, or an skd:// template).",
        completion: Completions.template)
    var template: String?

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp("With --template: a value the keys must have been made with (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(
        name: .customLong("var-file"),
        help: ArgumentHelp(
            "With --template: as --var, the value a file's text, one final newline dropped (a secret kept off the command line).",
            valueName: "NAME=FILE"))
    var variableFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --template: each title's values from a CSV (header row) or JSON file; a key must carry its own title's.",
            valueName: "FILE"),
        completion: .file(extensions: ["csv", "json"]))
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "With --template: named groups of this regular expression, matched on each playlist's path, are the values its keys must carry.",
            valueName: "REGEX"))
    var pathPattern: String?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "A host the derived https license URLs may point at (repeatable; *.example.com for subdomains).", valueName: "HOST"))
    var allowHosts: [String] = []

    @Flag(help: "Follow symbolic links to playlists and directories.")
    var followSymlinks = false

    @Option(
        help: ArgumentHelp(
            "The web server's document root on this disk: where masters' root-relative references (/vod/…) are read.",
            valueName: "DIR"))
    var root: String?

    @Flag(help: "Read the init segments EXT-X-MAP names and check the keys against them (MEDIA rules): scheme, KID, encryption.")
    var media = false

    @Flag(
        help: "Read every local media segment (fMP4 or MPEG-TS; implies --media) and check what the playlist says of it (SEG rules).")
    var segments = false

    @Option(
        help: ArgumentHelp(
            "Check FairPlay keys against a CPIX document from the key server (CPIX rules; repeatable; a directory of them).",
            valueName: "FILE"))
    var cpix: [String] = []

    @Option(help: ArgumentHelp("The largest init segment read (K, M, G suffixes).", valueName: "SIZE"))
    var maxInitSize = ByteCount(InitSegmentFile.defaultLimit)

    @OptionGroup var library: LibraryOptions

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        let clock = RunClock()
        try reportingUsage {
            let options = try validationOptions()
            let printer = DiagnosticPrinter(redaction: options.redaction)
            let input = try StandardInput.inputs(paths)
            defer { input.close() }
            var inputs = LibraryInput(paths: input.paths)
            inputs.followSymlinks = followSymlinks
            inputs.root = root
            inputs.shard = try LibraryOptions.shard(library.shard)
            inputs.jobs = try library.jobCount()
            inputs.spooled = input.spooled
            inputs.names = .commandLine
            let run = ValidateRun(options: options, library: inputs)
            let report: ReportFiles?
            // Standard output in the --format asked for, and every --report file, in one pass.
            var targets = try ReportOptions.targets(self.report)
            if case .report(let format) = format { targets.insert((.stream(fd: 1, name: "<stdout>"), format), at: 0) }
            do {
                report = targets.isEmpty ? nil : try ReportFiles(targets, tool: Report.Tool(version: SKDPackVersion.current))
            } catch {
                printer.print(error: "\(error)")
                printer.flush()
                throw ExitStatus.failure
            }
            let observer = ValidatePrinter(
                printer: printer, findings: format == .human ? FindingsPrinter(colour: isatty(1) == 1 && getenv("NO_COLOR") == nil) : nil,
                spooled: input.spooled, progress: !library.noProgress)
            StopSignal.install()
            let result = run.run(observer: observer, report: report, stop: { StopSignal.requested != nil }) { notDone in
                var described = clock.run(
                    command: "validate", arguments: RunClock.subcommandArguments.map { options.redaction.redacted($0) },
                    template: options.redaction.redacted(template),
                    shard: library.shard)
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
        let known = Set(RuleRegistry.validationKinds.map(\.id))
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
        options.reader = try limits.applied(to: options.reader)
        guard maxInitSize.bytes > 0 else { throw UsageFailure("--max-init-size must be positive") }
        options.checksMedia = media
        options.checksSegments = segments
        options.keyTruth = KeyTruth(
            documents: try KeyTruthOptions.documents(cpix), initSegments: InitSegmentStore(limit: maxInitSize.bytes))
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
