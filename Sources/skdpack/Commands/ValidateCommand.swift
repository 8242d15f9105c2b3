import ArgumentParser
import FoundationEssentials
import Glibc
import HLS
import SKDPack
import SKDReports
import SKDTemplate

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check playlists before they are published: HLS grammar, keys, and FairPlay key lines.",
        discussion: """
            Every playlist given, or found under a directory given, is read in one streaming pass; each
            finding is printed as path:line:col: severity: message [RULE] with the line and a caret.
            `skdpack rules` lists the rules. Exit status: 0 no errors, 1 errors found, 2 an input could not
            be read.

            Examples:
              skdpack validate examples/library
              skdpack validate --disable FPS-iv --warnings-as-errors title/master.m3u8
              skdpack validate --format junit library/ > validate.junit.xml
              skdpack validate --shard 2/8 --format json library/ > shard-2.json
              skdpack validate --template entitlement --var entitlement_url=https://new-lic.example.com/fps \\
                  --allow-host new-lic.example.com library/
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case human, json, xml, junit, sarif }

    @Argument(help: "Playlists, directories of playlists, or - for standard input.")
    var paths: [String] = []

    @Option(help: "Output format: human, json, xml (the report; schemas from `skdpack report schema`), junit or sarif.")
    var format: Format = .human

    @Option(name: .customLong("disable"), help: ArgumentHelp("Turn off a rule (repeatable).", valueName: "RULE"))
    var disabledRules: [String] = []

    @Flag(help: "Count warnings as errors (and fail on them).")
    var warningsAsErrors = false

    @Option(help: "The longest FairPlay key URI accepted, in bytes (FPS-uri-length).")
    var maxURILength = ValidationOptions().maximumURILength

    @Option(help: "Check that every FairPlay key is one this template makes (a shipped name, a file, or an skd:// template).")
    var template: String?

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp("With --template: a value the keys must have been made with (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp("A host the derived https license URLs may point at (repeatable; *.example.com for subdomains).", valueName: "HOST"))
    var allowHosts: [String] = []

    @Flag(help: "Follow symbolic links to playlists and directories.")
    var followSymlinks = false

    @OptionGroup var library: LibraryOptions

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        let clock = RunClock()
        try reportingUsage {
            let options = try validationOptions()
            guard !paths.isEmpty else { throw UsageFailure("give at least one playlist, directory, or - for standard input") }
            var inputs = paths
            var spooled: String?
            if let index = inputs.firstIndex(of: "-") {
                guard inputs.count == 1 else { throw UsageFailure("- (standard input) cannot be mixed with other inputs") }
                spooled = try StandardInput.spool()
                inputs[index] = spooled!
            }
            defer { if let spooled { unlink(spooled) } }

            let printer = DiagnosticPrinter()
            let discovery = PlaylistDiscovery(followSymlinks: followSymlinks).discover(inputs)
            for problem in discovery.problems { printer.print(message: "skdpack: \(problem)") }
            let output: ValidationOutput
            do {
                output = try ValidationOutput(format == .human ? .human : .report(ReportFormat(rawValue: format.rawValue)!), spooled: spooled)
            } catch {
                printer.print(message: "skdpack: \(error)")
                printer.flush()
                throw ExitStatus.failure
            }
            var unreadable = 0
            let packages = try library.packages(of: discovery.packages)
            let total = packages.reduce(0) { $0 + $1.playlistCount }
            let progress = ProgressBar(
                total: total, enabled: !library.noProgress, printer: printer)
            StopSignal.install()
            var done = 0
            do {
                // Package by package, each package's playlists by path: the order of reports.
                try OrderedParallel.run(
                    packages, jobs: try library.jobCount(), stop: { StopSignal.requested != nil }
                ) { package in
                    Self.validate(package, options: options)
                } consume: { validated in
                    var playlists = validated.results
                    for problem in validated.problems {
                        printer.print(message: "skdpack: \(problem)")
                        // In the report too, as a playlist that failed, with the reason.
                        playlists.append(.unreadable(problem))
                    }
                    for playlist in playlists.sorted(by: { $0.path < $1.path }) {
                        try output.add(playlist, package: validated.package)
                    }
                    unreadable += validated.problems.count
                    done += playlists.count
                    progress.advance(by: playlists.count)
                }
                progress.finish()
                let arguments = RunClock.subcommandArguments.map(options.redaction.redact)
                try output.finish(run: clock.run(command: "validate", arguments: arguments, template: template))
            } catch {
                progress.finish()
                printer.print(message: "skdpack: \(error)")
                printer.flush()
                throw ExitStatus.failure
            }
            printer.flush()
            StopSignal.exitIfRequested(done: done, of: total, printer: printer)
            if !discovery.problems.isEmpty || unreadable > 0 { throw ExitStatus.failure }
            if output.hasErrors { throw ExitStatus.findings }
        }
    }

    private func validationOptions() throws -> ValidationOptions {
        var options = ValidationOptions()
        let known = Set(RuleRegistry.validationKinds.map(\.id))
        for rule in disabledRules {
            guard known.contains(DiagnosticID(rawValue: rule)) else {
                throw UsageFailure("--disable \(rule): no such rule (skdpack rules lists them)")
            }
            options.disabledRules.insert(DiagnosticID(rawValue: rule))
        }
        guard maxURILength > 0 else { throw UsageFailure("--max-uri-length must be a positive number of bytes") }
        options.maximumURILength = maxURILength
        options.warningsAsErrors = warningsAsErrors
        options.reader = try limits.applied(to: options.reader)
        var pinned: [String: String] = [:]
        for variable in variables {
            let (name, value) = try TemplateOptions.variable(variable)
            pinned[name] = value
        }
        options.allowHosts = allowHosts
        if let template {
            let definition: TemplateDefinition
            do {
                definition = try KeyTemplate.resolve(template, in: TemplateLibrary.fromProcessEnvironment()).definition
            } catch {
                throw UsageFailure("--template: \(error)")
            }
            for name in pinned.keys where !definition.uri.variableNames.contains(name) {
                throw UsageFailure("--var \(name): the template \(definition.name) has no variable \(name)")
            }
            do {
                options.templateMatcher = try TemplateMatcher(definition: definition, pinned: pinned)
            } catch {
                throw UsageFailure("--template \(template): \(error)")
            }
            options.allowHosts += definition.allowHosts
        } else if !pinned.isEmpty {
            throw UsageFailure("--var needs --template: the values are checked against the keys it makes")
        }
        return options
    }

    /// Validates the playlists of `package` one by one, then the package rules over them; each finding of
    /// the package goes to the playlist it is about.
    private static func validate(
        _ package: PlaylistPackage, options: ValidationOptions
    ) -> (package: String, results: [PlaylistValidation], problems: [IOError]) {
        var master: PlaylistValidation?
        var media: [PlaylistValidation] = []
        var problems: [IOError] = []
        for file in [package.master].compactMap({ $0 }) + package.media {
            do {
                let result = try PlaylistValidator.validate(
                    try FileDescriptorSource.open(path: file.path), path: file.path, options: options)
                if file.path == package.master?.path { master = result } else { media.append(result) }
            } catch {
                problems.append(error)
            }
        }
        let packageFindings = package.diagnostics.filter { !options.disabledRules.contains($0.id) }
            + PackageValidator.validate(master: master, media: media, options: options)
        let results = ([master].compactMap { $0 } + media).map { result in
            var result = result
            let own = packageFindings.filter { $0.location.path == result.path }
            if !own.isEmpty { result.diagnostics = merged(result.diagnostics, own) }
            return result
        }
        return (package.key, results, problems)
    }

    /// A playlist's findings with the package findings about it, in line order.
    private static func merged(_ findings: [Diagnostic], _ package: [Diagnostic]) -> [Diagnostic] {
        (findings + package).sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    }

}
