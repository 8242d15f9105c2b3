import Glibc
import HLS
import SKDFiles
import SKDReportModel
import SKDTemplate

/// The `apply` use case, whole: a library's playlists discovered and sharded, the plan checked before
/// anything is written, the leftovers of an interrupted run removed, every package applied (in parallel,
/// its results handed on in order), the content ids several titles got, the summary and the reports. What
/// it finds goes to an ``ApplyObserver``; what it concludes is its ``Result``. The command line only turns
/// flags into one and the result into an exit status.
public struct ApplyRun: Sendable {
    public var options: ApplyOptions
    public var library: LibraryInput
    public var destination: ApplyDestination
    /// Where a playlist for standard output, and diffs, go (diffs and standard output are one stream,
    /// written by one job: ``LibraryInput/jobs`` is not used then).
    public var stream: StreamOutput?
    /// Let several titles get one content id from a pattern (otherwise the plan refuses it).
    public var allowsSharedContentIDs = false

    public init(options: ApplyOptions, library: LibraryInput, destination: ApplyDestination, stream: StreamOutput? = nil) {
        self.options = options
        self.library = library
        self.destination = destination
        self.stream = stream
    }

    /// How a run ended, and what it did.
    public struct Result: Sendable {
        public var run: RunResult
        public var summary = ApplySummary()
    }

    /// Runs it. `report` gets every playlist and is finished with `describe`'s account of the run (told
    /// how many playlists it did not get to, when it stopped early); `stop` is asked before each package.
    public func run(
        observer: some ApplyObserver, report: (any ReportSink)?, stop: @escaping @Sendable () -> Bool = { false },
        describe: (_ notDone: Int?) -> Report.Run
    ) -> Result {
        // Where playlists are rewritten where they are (or checked for it), a media playlist given without
        // its master is held to the master's session keys.
        let inPlace = [.inPlace, .check, .diff].contains(destination)
        let job = library.job(PlaylistDiscovery(findsLeftoversBesideFiles: destination == .inPlace, findsListingMasters: inPlace))
        let names = library.names
        var result = Result(run: RunResult(status: .succeeded, done: 0, total: job.total))
        for problem in job.discovery.problems { observer.note(problem.description) }
        // A pattern that left out nothing most often meant to leave out a title that would now be written (a
        // check or a diff shows what would change: it is said there as a warning).
        let writes = destination.writesFiles
        for note in job.discovery.exclusionNotes(names, unusedIsError: writes) { observer.note(note) }
        if writes, !job.discovery.unusedExclusions.isEmpty {
            observer.note("nothing written: each pattern of \(names[.exclude]) must leave out something")
            result.run.status = .failed
            return result
        }
        // A run whose inputs are not all there (a misspelt path) writes nothing: run again when they are.
        if !job.discovery.problems.isEmpty {
            let count = job.discovery.problems.count
            observer.note("nothing written: \(count) input\(count == 1 ? "" : "s") could not be read")
            result.run.status = .failed
            return result
        }
        // The whole plan before the first write: a mistake in it is said once, and nothing is touched.
        let problems = ApplyPlan(options: options).problems(for: job.packages, allowingSharedContentIDs: allowsSharedContentIDs)
        guard problems.isEmpty else {
            for problem in problems { observer.note(problem) }
            result.run.status = .failed
            return result
        }
        // Two inputs whose playlists have one path relative to each (two titles' master.m3u8) would write
        // one file of the mirror twice, the last one kept: refused, naming them.
        // Each playlist is written (or shown in a diff) at its path relative to the input it was found under:
        // two of one path would overwrite each other, or make a patch that cannot say which is which.
        if let (first, second, relative) = Self.collision(in: job.packages) {
            let place: String? =
                switch destination {
                case .directory(let root): "written to \(root)/\(relative)"
                case .diff: "shown as a/\(relative) in the diff"
                default: nil
                }
            if let place {
                observer.note(
                    "\(first) and \(second) would both be \(place) (each at its path relative to the input it was found "
                        + "under): give their common folder as the input, so that each title keeps its folder, or run once "
                        + "per input")
                result.run.status = .failed
                return result
            }
        }
        if destination == .standardOutput, job.total > 1 {
            observer.note(
                "\(job.total) playlists to write: give \(names[.destinations]) (standard output takes one)")
            result.run.status = .failed
            return result
        }
        removeLeftovers(found: job.discovery.leftovers, observer: observer)
        let runner = ApplyRunner(options: options, destination: destination, stream: stream)
        let redaction = options.redaction
        var contentIDs = SharedContentIDs()
        // The secrets the playlists' own values brought (old URIs' tokens, catalogue rows), for the warnings
        // that quote what patterns captured.
        var playlistSecrets: Set<Secret> = []
        // Keys the --match pattern did not find, and whether any playlist was written without such a miss.
        var (matchMisses, matchedSomewhere) = (0, false)
        var patternFitsNothing = false
        do {
            result.run.done = try job.run(jobs: destination.writesOneStream ? 1 : library.jobs, stop: stop) { package in
                // A package's playlists in path order: the order of the report, written as it goes.
                (package.key, runner.run(package).sorted { $0.path < $1.path })
            } consume: { package, outcomes in
                contentIDs.add(outcomes, package: package)
                for outcome in outcomes {
                    playlistSecrets.formUnion(outcome.secretValues)
                    let misses = outcome.diagnostics.count { $0.id == ApplyDiagnostics.matchFailed.id }
                    matchMisses += misses
                    if misses == 0, outcome.counts.keysRewritten > 0 { matchedSomewhere = true }
                }
                var shown: [PlaylistOutcome] = []
                for var outcome in outcomes {
                    // (Read from the file as it was read: not one rewritten in place.)
                    if !(destination == .inPlace && outcome.changed && !outcome.failed) {
                        outcome.diagnostics = LineOffsets.filled(outcome.diagnostics)
                    }
                    outcome.path = job.shown(outcome.path)
                    for index in outcome.diagnostics.indices {
                        outcome.diagnostics[index].location.path = job.shown(outcome.diagnostics[index].location.path)
                        outcome.diagnostics[index].message = redaction.redact(outcome.diagnostics[index].message)
                    }
                    result.summary.add(outcome)
                    try report?.add(
                        Report.Playlist(outcome, package: job.shown(package), redaction: redaction.adding(outcome.secretValues)))
                    shown.append(outcome)
                }
                // Told causes first: a playlist left as it was only because another of its title failed
                // comes after the one that failed, whatever their paths.
                let consequences = shown.filter(\.onlyFollowsTitle)
                for outcome in shown.filter({ !$0.onlyFollowsTitle }) + consequences { observer.applied(outcome) }
                observer.progress(done: outcomes.count, of: job.total)
                return outcomes.count
            }
            let redaction = redaction.adding(playlistSecrets)
            if !allowsSharedContentIDs {
                for (id, titles) in contentIDs.shared {
                    let named = titles.prefix(3).map(job.shown).joined(separator: ", ") + (titles.count > 3 ? ", …" : "")
                    observer.note(
                        "warning: \(titles.count) titles got the content id \(redaction.redact(id)) from \(names[.match]) or "
                            + "\(names[.pathPattern]) (\(named)); a pattern that captures too much? (\(names[.allowSharedContentID]) if they share it)"
                    )
                }
            }
            for (title, ids) in contentIDs.titlesWithSeveral {
                let named = ids.prefix(3).map(redaction.redact).joined(separator: ", ") + (ids.count > 3 ? ", …" : "")
                observer.note(
                    "warning: the keys of \(job.shown(title)) got \(ids.count) content ids from \(names[.match]) or \(names[.pathPattern]) "
                        + "(\(named)); a pattern that captures more than the content id (a period, a key id)?")
            }
            // A pattern that fits none of the run's key URIs is one mistake, said once beside its errors: the run's
            // (exit 2, as the plan's refusals), not the playlists'.
            // (A run of one key URI too: a title of one key is where a pattern is tried first.)
            if matchMisses > 0, !matchedSomewhere, let match = options.variables.match {
                let missed =
                    matchMisses == 1
                    ? "does not fit the one key URI it was given (the \(ApplyDiagnostics.matchFailed.id) error above quotes it)"
                    : "found none of the \(matchMisses) key URIs it was given (each \(ApplyDiagnostics.matchFailed.id) error above "
                        + "quotes one): the pattern does not fit these URIs"
                observer.note("error: \(names[.match]) \(match.text) \(missed)")
                patternFitsNothing = true
            }
            if let links = job.discovery.skippedLinksNote(names) { observer.note(links) }
            try report?.finish(run: describe(result.run.notDone))
            result.run.finished = true
        } catch {
            report?.discard()
            observer.note("\(error)")
            result.run.status = .failed
            return result
        }
        if result.summary.ioFailures > 0 || patternFitsNothing {
            result.run.status = .failed
        } else if result.summary.failed > 0 || (destination == .check && result.summary.changed > 0) {
            result.run.status = .findings
        }
        return result
    }

    /// The first two playlists of `packages` with one path relative to their inputs, and that path.
    private static func collision(in packages: [PlaylistPackage]) -> (String, String, String)? {
        var seen: [String: String] = [:]
        for package in packages {
            for file in [package.master].compactMap({ $0 }) + package.media {
                if let other = seen[file.relativePath], other != file.path { return (other, file.path, file.relativePath) }
                seen[file.relativePath] = file.path
            }
        }
        return nil
    }

    /// Removes the temporary files an interrupted run left where this one writes: beside the playlists
    /// rewritten in place, or in the output directory.
    private func removeLeftovers(found: [String], observer: some ApplyObserver) {
        let candidates: [String]
        switch destination {
        case .inPlace: candidates = found
        case .directory(let root): candidates = TemporaryLeftovers.find(under: root)
        default: return
        }
        guard !candidates.isEmpty else { return }
        let (removed, problems) = TemporaryLeftovers.remove(candidates)
        for problem in problems { observer.note("\(problem)") }
        guard let first = removed.first else { return }
        let files = removed.count == 1 ? "temporary file" : "temporary files"
        observer.note("removed \(removed.count) \(files) left by an interrupted run (\(first)\(removed.count > 1 ? ", …" : ""))")
    }
}

/// What an `apply` run tells as it goes: to a terminal, a log, a test.
public protocol ApplyObserver {
    /// A message about the run rather than a playlist: an input that cannot be read, a mistake in the
    /// plan, a warning.
    func note(_ message: String)
    /// A playlist done, its paths as the user gave them and its secrets hidden: a title's playlists in
    /// report order, but those left as they were only because another of the title failed after the rest.
    func applied(_ outcome: PlaylistOutcome)
    /// `playlists` more of `total` are done.
    func progress(done playlists: Int, of total: Int)
}

/// What an `apply` run did, counted: the one line it ends with.
public struct ApplySummary: Sendable {
    public var read = 0
    public var changed = 0
    public var unchanged = 0
    public var failed = 0
    /// Playlists that could not be read or written, or whose title another run held.
    public var ioFailures = 0
    public var rewritten = 0
    public var inserted = 0
    public var removed = 0

    public init() {}

    public mutating func add(_ outcome: PlaylistOutcome) {
        read += 1
        if outcome.diagnostics.contains(where: { $0.id == PackageDiagnostics.unreadable.id || $0.id == ApplyDiagnostics.titleLocked.id }) {
            ioFailures += 1
        }
        if outcome.failed {
            failed += 1
        } else if outcome.changed {
            changed += 1
            rewritten += outcome.counts.keysRewritten
            inserted += outcome.counts.keysInserted
            removed += outcome.counts.keysRemoved
        } else {
            unchanged += 1
        }
    }

    /// `apply: 7 playlists read, 6 changed, …`; `checking`: nothing was written (`--check`, `--diff`).
    public func line(checking: Bool) -> String {
        let verb = checking ? "would change" : "changed"
        return "apply: \(read) playlist\(read == 1 ? "" : "s") read, \(changed) \(verb), \(unchanged) unchanged, "
            + "\(failed) failed; keys rewritten \(rewritten), inserted \(inserted), removed \(removed)"
    }
}
