import ArgumentParser
import Glibc
import HLS
import MP4
import SKDFiles
import SKDKeys
import SKDPack
import SKDReportModel
import SKDReports
import SKDTemplate

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Insert or rewrite FairPlay keys following a template.",
        discussion: """
            Every FairPlay EXT-X-KEY gets its URI from the template; a key period with other systems' \
            SAMPLE-AES keys but no FairPlay key gets one; masters keep their FairPlay EXT-X-SESSION-KEYs equal \
            to the keys their media playlists use. Every other byte stays as it was. The whole plan is checked \
            before anything is written (variables, catalogue columns and rows, license hosts): a mistake there \
            stops the run with exit status 2. A title (a master and its playlists) is changed whole or not at \
            all: if one of its playlists has an error, none is written, and the exit status is 1.

            Variables, strongest first: --var and --var-file, --match groups, --path-pattern groups, the --catalog row, the \
            built-ins (playlist, playlist_stem, title_dir, key_index, kid, old_uri), the template's defaults.

            Key truth: with --cpix, each FairPlay key gets the key the key server's CPIX document gives its track \
            (the master's RESOLUTION, EXT-X-MEDIA CHANNELS) and key period: {kid} (32 hex digits), {kid_uuid}, \
            {cpix_content_id}, {iv_hex} and {cpix_uri} (the URI of the document's FairPlay signaling; the \
            shipped template cpix writes it). With --kid-from media, {kid} and {kid_uuid} are the default KID of \
            the init segment the key period's EXT-X-MAP names. No key, or two, for a track is an error.

            Examples:
              skdpack apply --template content-id --var content_id=title-42 \\
                  examples/library/legacy-title/video-360p.m3u8
              skdpack apply --template entitlement-rotation \\
                  --catalog examples/catalog.csv \\
                  --output /tmp/skdpack-out examples/library/
              skdpack apply --template entitlement-rotation \\
                  --var entitlement_url=https://new-lic.example.com/fps \\
                  --match '(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)' \\
                  --diff examples/library/
              skdpack apply --template cpix --cpix examples/key-truth/keys.xml \\
                  --assume-encrypted --diff examples/key-truth/title/
              skdpack apply --template key-id --kid-from media --assume-encrypted \\
                  --diff examples/key-truth/title/
            """)

    @OptionGroup var templateOptions: TemplateOptions

    @Argument(help: "Playlist files, directories (walked for *.m3u8), or - for standard input.")
    var paths: [String] = []

    @Flag(help: "Replace each changed file, atomically; unchanged files are not touched.")
    var inPlace = false

    @Option(help: ArgumentHelp("Write every playlist under DIR, at its path relative to its input.", valueName: "DIR"))
    var output: String?

    @Flag(help: "Write nothing; exit 1 if anything would change. One destination only: in place, an output folder, a check or a diff.")
    var check = false

    @Flag(help: "Write nothing; print a unified diff of what would change (exit 0 whether or not anything would).")
    var diff = false

    @Flag(help: "Give clear media playlists (no keys at all) a FairPlay key.")
    var assumeEncrypted = false

    @Flag(help: "Add missing FairPlay EXT-X-SESSION-KEYs to masters (as the template's session_keys).")
    var sessionKeys = false

    @Flag(
        name: .customLong("allow-shared-content-id"),
        help:
            "Let several titles get one content id from the match or path pattern (otherwise that stops the run before anything is written)."
    )
    var allowSharedContentID = false

    @Flag(
        help:
            "Validate each playlist as written (validate's rules, with the template) and leave one with any error as it was; a second read of each."
    )
    var validate = false

    @Flag(help: "Follow symbolic links when walking directories.")
    var followSymlinks = false

    @Option(
        help: ArgumentHelp(
            "The web server's document root on this disk: where masters' root-relative references (/vod/…) are read.",
            valueName: "DIR"))
    var root: String?

    @Option(
        help: ArgumentHelp(
            "A CPIX document from the key server (repeatable), or a directory of them matched to titles by content id.",
            valueName: "FILE"))
    var cpix: [String] = []

    @Option(
        help: ArgumentHelp("Take {kid} from the default KID of each key period's init segment (EXT-X-MAP).", valueName: "media"),
        completion: Completions.kidSource)
    var kidFrom: String?

    @Option(
        help: ArgumentHelp(
            "With --in-place, how long to wait for a title another skdpack run holds before leaving it as it is (exit 2).",
            valueName: "SECONDS"))
    var lockWait: Double = 30

    @Option(help: ArgumentHelp("The largest init segment read (K, M, G suffixes).", valueName: "SIZE"))
    var maxInitSize = ByteCount(InitSegmentFile.defaultLimit)

    @Option(
        name: .customLong("disable"),
        help: ArgumentHelp(
            "Let a grammar finding of the reader pass (repeatable), e.g. HLS-tab-character: playlists with only such findings are still updated, their lines copied as they are.",
            valueName: "RULE"), completion: Completions.ignorableFinding)
    var disabledRules: [String] = []

    @OptionGroup var library: LibraryOptions

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    @Option(
        help: ArgumentHelp(
            "Write a report of every change and finding to FILE (repeatable); the format follows the name: .json, .xml, .junit.xml, .sarif, .html.",
            valueName: "FILE"), completion: Completions.reportFile)
    var report: [String] = []

    /// What ArgumentParser parsed, as the settings ``ApplyFastPath`` reads from a plain line (a test holds the
    /// two to the same settings).
    var settings: ApplySettings {
        var settings = ApplySettings(template: templateOptions.template)
        settings.request.values = templateOptions.values
        (settings.paths, settings.inPlace, settings.output, settings.check, settings.diff) = (paths, inPlace, output, check, diff)
        (settings.request.assumeEncrypted, settings.request.sessionKeys, settings.allowSharedContentID) =
            (assumeEncrypted, sessionKeys, allowSharedContentID)
        settings.input = InputSettings(followSymlinks: followSymlinks, root: root, library, limits)
        (settings.reports, settings.request.cpix, settings.request.kidFrom, settings.request.maximumInitSize) =
            (report, cpix, kidFrom, maxInitSize.bytes)
        (settings.request.ignoredFindings, settings.request.titleLockWait, settings.request.validatesWrites) =
            (disabledRules, lockWait, validate)
        return settings
    }

    func run() throws { try settings.run() }
}

extension ApplySettings {
    /// Applies the template to the playlists, as the settings say; exit status as the README says.
    func run() throws {
        let clock = RunClock()
        try reportingUsage {
            let reportFormats = try ReportOptions.targets(reports)
            let printer = DiagnosticPrinter()
            defer { printer.flush() }
            let destination = try self.destination()
            var request = self.request
            (request.destination, request.inputs) = (destination, paths)
            // Without a report only counts are shown, and counts keep memory flat; a report lists every change.
            request.keepsChangeDetails = !reportFormats.isEmpty
            request.reader = try self.input.reader(request.reader)
            let options = try Planner.apply(request, names: .commandLine)
            let redaction = options.redaction
            printer.redaction = redaction
            let input = try StandardInput.inputs(paths) {
                guard destination != .inPlace, !isDirectoryDestination(destination) else {
                    throw UsageFailure("standard input can go to standard output, --check or --diff only")
                }
            }
            defer { input.close() }
            let library = try self.input.library(input)
            var run = ApplyRun(
                options: options, library: library, destination: destination,
                stream: StreamOutput(fd: 1, name: "<stdout>", temporaryDirectory: getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"))
            run.allowsSharedContentIDs = allowSharedContentID
            let reports: ReportFiles?
            do {
                reports =
                    reportFormats.isEmpty
                    ? nil : try ReportFiles(reportFormats, tool: Report.Tool(version: SKDPackVersion.current), rules: FindingKinds.all)
            } catch {
                printer.print(error: "\(error)")
                throw ExitStatus.failure
            }
            let observer = ApplyPrinter(
                printer: printer, checking: destination == .check, progress: !self.input.noProgress && !destination.writesOneStream)
            StopSignal.install()
            let result = run.run(observer: observer, report: reports, stop: { StopSignal.requested != nil }) { notDone in
                var described = clock.run(
                    command: "apply", arguments: RunClock.subcommandArguments.map { redaction.redacted($0) },
                    template: redaction.redacted(request.template),
                    shard: self.input.shard)
                if StopSignal.requested != nil, let notDone {
                    described.partial = true
                    described.notDone = notDone
                }
                return described
            }
            observer.finish()
            if result.run.finished {
                printer.print(message: redaction.redacted(result.summary.line(checking: destination == .check || destination == .diff)))
            }
            printer.flush()
            StopSignal.exitIfRequested(done: result.run.done, of: result.run.total, printer: printer)
            switch result.run.status {
            case .succeeded: break
            case .findings: throw ExitStatus.findings
            case .failed: throw ExitStatus.failure
            }
        }
    }

    private func destination() throws -> ApplyDestination {
        let chosen = [inPlace, output != nil, check, diff].filter { $0 }.count
        guard chosen <= 1 else { throw UsageFailure("choose one of --in-place, --output, --check and --diff") }
        guard !paths.isEmpty else { throw UsageFailure("give at least one playlist, directory, or - for standard input") }
        if inPlace { return .inPlace }
        if let output {
            // A name like a playlist's, not there yet: the user meant a file, which --output is not.
            let lowered = output.lowercased()
            if lowered.hasSuffix(".m3u8") || lowered.hasSuffix(".m3u"), access(output, F_OK) != 0 {
                throw UsageFailure(
                    "--output takes a folder, and \(output) would be made one; to write one playlist to a file, "
                        + "redirect standard output: skdpack apply … PLAYLIST > \(output)")
            }
            return .directory(output)
        }
        if check { return .check }
        if diff { return .diff }
        return .standardOutput
    }

    private func isDirectoryDestination(_ destination: ApplyDestination) -> Bool {
        if case .directory = destination { return true }
        return false
    }
}

/// What `apply` tells as it goes, on standard error: notes, each playlist's findings, the playlists
/// `--check` would change, a progress bar.
final class ApplyPrinter: ApplyObserver {
    private let printer: DiagnosticPrinter
    private let checking: Bool
    private let showsProgress: Bool
    /// Made with the first progress, when the total is known.
    private var progressBar: ProgressBar?

    init(printer: DiagnosticPrinter, checking: Bool, progress: Bool) {
        self.printer = printer
        self.checking = checking
        self.showsProgress = progress
    }

    func note(_ message: String) { printer.print(error: message) }

    func applied(_ outcome: PlaylistOutcome) {
        for diagnostic in outcome.diagnostics { printer.print(diagnostic) }
        if checking, outcome.changed {
            let count = outcome.counts.total
            printer.print(message: printer.redaction.redacted("\(outcome.path): would change (\(count) change\(count == 1 ? "" : "s"))"))
        }
    }

    func progress(done playlists: Int, of total: Int) {
        if progressBar == nil { progressBar = ProgressBar(total: total, enabled: showsProgress, printer: printer) }
        progressBar?.advance(by: playlists)
    }

    /// Clears the progress bar, for the summary.
    func finish() { progressBar?.finish() }
}
