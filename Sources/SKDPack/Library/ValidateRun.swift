import HLS
import SKDFiles
import SKDReportModel
import SKDValidation

/// The `validate` use case, whole: a library's playlists discovered and sharded, every package validated
/// (in parallel, its results handed on in order), an input that could not be read reported as a playlist
/// that failed, and the report. Each playlist's results go to a ``ValidateObserver`` and the report; what
/// the run concludes is its ``Result``.
public struct ValidateRun: Sendable {
    public var options: ValidationOptions
    public var library: LibraryInput

    public init(options: ValidationOptions, library: LibraryInput) {
        self.options = options
        self.library = library
    }

    /// Runs it. `report` gets every playlist and is finished with `describe`'s account of the run (told
    /// how many playlists it did not get to, when it stopped early); `stop` is asked before each package.
    public func run(
        observer: some ValidateObserver, report: (any ReportSink)?, stop: @escaping @Sendable () -> Bool = { false },
        describe: (_ notDone: Int?) -> Report.Run
    ) -> RunResult {
        let job = library.job()
        var result = RunResult(status: .succeeded, done: 0, total: job.total)
        for note in job.discovery.exclusionNotes(library.names) { observer.note(note) }
        var unreadable = job.discovery.problems.count
        var errors = false
        var options = options
        options.recordsKeyPeriods = report != nil
        let runner = ValidationRunner(options: options)
        var runKeys = RunKeyMap()
        func add(_ validation: PlaylistValidation, package: String, unread: IOError? = nil) throws {
            var validation = validation
            validation.diagnostics = LineOffsets.filled(validation.diagnostics)
            validation = Self.shown(validation, as: job.shown(validation.path))
            if validation.count(.error) > 0 { errors = true }
            try report?.add(
                Report.Playlist(validation, package: job.shown(package), redaction: options.redaction.adding(validation.redaction)))
            // An input not read is told once, as what it is, and counted apart from the playlists checked.
            if let unread { observer.notRead(unread) } else { observer.validated(validation) }
        }
        do {
            // An input that is not there, or holds no playlist, is in the report as a playlist that failed:
            // a CI view of the report shows it red, not a green run over less than was asked.
            for problem in job.discovery.problems {
                try add(.unreadable(problem), package: problem.path, unread: problem)
            }
            // Package by package, each package's playlists by path: the order of reports.
            result.done = try job.run(jobs: library.jobs, stop: stop) {
                runner.run($0)
            } consume: { package in
                let playlists = runner.heldToTheRun(package.playlists, title: AtomicFile.directory(of: package.package), keys: &runKeys)
                // A playlist not read is in the report too, as a playlist that failed, with the reason.
                let entries =
                    playlists.map { ($0, nil as IOError?) } + package.unreadable.map { (PlaylistValidation.unreadable($0), $0) }
                for (playlist, unread) in entries.sorted(by: { $0.0.path < $1.0.path }) {
                    try add(playlist, package: package.package, unread: unread)
                }
                unreadable += package.unreadable.count
                observer.progress(done: entries.count, of: job.total)
                return entries.count
            }
            if let links = job.discovery.skippedLinksNote(library.names) { observer.note(links) }
            try report?.finish(run: describe(result.notDone))
            result.finished = true
        } catch {
            report?.discard()
            observer.note("\(error)")
            result.status = .failed
            return result
        }
        result.status = unreadable > 0 ? .failed : errors ? .findings : .succeeded
        return result
    }

    /// `validation` with its path, and its findings', shown as `shown` (standard input as `-`).
    private static func shown(_ validation: PlaylistValidation, as shown: String) -> PlaylistValidation {
        guard shown != validation.path else { return validation }
        var renamed = validation
        renamed.path = shown
        for index in renamed.diagnostics.indices { renamed.diagnostics[index].location.path = shown }
        return renamed
    }
}

/// What a `validate` run tells as it goes: to a terminal, a log, a test.
public protocol ValidateObserver {
    /// A message about the run rather than a playlist: an input that cannot be read.
    func note(_ message: String)
    /// A playlist's results, in report order, its paths as the user gave them.
    func validated(_ validation: PlaylistValidation)
    /// An input, or a playlist of a package, that could not be read (the report has it as a playlist that
    /// failed).
    func notRead(_ problem: IOError)
    /// `playlists` more of `total` are done.
    func progress(done playlists: Int, of total: Int)
}

extension ValidateObserver {
    /// Told as a note, by default.
    public func notRead(_ problem: IOError) { note(problem.description) }
}
