import Glibc
import HLS
import SKDPack

/// What `apply` and `validate` do alike over their inputs: `-` spooled to a file, the inputs discovered
/// (problems printed), the shard taken, the packages run in parallel with their results consumed in
/// order, a progress bar, and a clean stop on SIGINT or SIGTERM.
final class LibraryRun {
    let printer: DiagnosticPrinter
    /// The temporary file standing for standard input, if `-` was given: removed by ``close()``.
    let spooled: String?
    let discovery: PlaylistDiscovery.Result
    /// The packages to run, in report order.
    let packages: [PlaylistPackage]
    /// How many playlists they hold.
    let total: Int
    /// Playlists consumed so far.
    private(set) var done = 0

    /// Spools standard input if `paths` is `-` (allowed only when `allowsStandardInput` says so), discovers
    /// the playlists and takes the shard.
    init(
        paths: [String], discovery: PlaylistDiscovery, shard: String?, printer: DiagnosticPrinter,
        allowsStandardInput: () throws -> Void = {}
    ) throws {
        guard !paths.isEmpty else { throw UsageFailure("give at least one playlist, directory, or - for standard input") }
        var inputs = paths
        var spooled: String?
        if let index = inputs.firstIndex(of: "-") {
            guard inputs.count == 1 else { throw UsageFailure("- (standard input) cannot be mixed with other inputs") }
            try allowsStandardInput()
            spooled = try StandardInput.spool()
            inputs[index] = spooled!
        }
        self.printer = printer
        self.spooled = spooled
        var discovery = discovery
        discovery.unanchored = Set([spooled].compactMap { $0 })
        var discovered = discovery.discover(inputs)
        // A gate pointed at the wrong folder must not pass for one that found nothing wrong: an input with
        // no playlist is one that could not be read.
        if discovered.packages.isEmpty, discovered.problems.isEmpty {
            discovered.problems = inputs.map {
                IOError(path: $0, operation: "find a playlist in it", errno: ENOENT, reason: "no *.m3u8 file there")
            }
        }
        self.discovery = discovered
        for problem in self.discovery.problems { printer.print(message: "skdpack: \(problem)") }
        packages = try LibraryOptions.packages(of: self.discovery.packages, shard: shard)
        total = packages.reduce(0) { $0 + $1.playlistCount }
    }

    /// Removes the spooled standard input.
    func close() {
        if let spooled { unlink(spooled) }
    }

    /// The name a path is shown with: `-` for the spooled standard input.
    func shown(_ path: String) -> String { path == spooled ? "-" : path }

    /// `work` on each package, `jobs` at once; `consume` on each result in package order, returning how
    /// many playlists it covered (for the progress bar). After SIGINT or SIGTERM no package is started.
    func run<Output: Sendable>(
        jobs: Int, progress showsProgress: Bool, work: @Sendable (PlaylistPackage) -> Output, consume: (Output) throws -> Int
    ) throws {
        let progress = ProgressBar(total: total, enabled: showsProgress, printer: printer)
        defer { progress.finish() }
        StopSignal.install()
        let stop: @Sendable () -> Bool = { StopSignal.requested != nil }
        try OrderedParallel.run(packages, jobs: jobs, stop: stop, work: work) { output in
            let count = try consume(output)
            done += count
            progress.advance(by: count)
        }
    }

    /// `run` marked partial, with the playlists not done, when a signal stopped the run before its end.
    func marked(_ run: Report.Run) -> Report.Run {
        guard StopSignal.requested != nil, done < total else { return run }
        var run = run
        run.partial = true
        run.notDone = total - done
        return run
    }

    /// After a run stopped by a signal: says so and exits with 128 + the signal.
    func exitIfStopped() {
        StopSignal.exitIfRequested(done: done, of: total, printer: printer)
    }
}
