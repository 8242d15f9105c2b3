import Glibc
import HLS
import SKDFiles
import SKDReportModel

/// What `apply` and `validate` do alike over their inputs: the playlists discovered (an input without any
/// is one that could not be read), the share of the packages a shard takes, and the packages worked
/// through in parallel with their results handed on in order, until the end or a stop.
public struct LibraryJob: Sendable {
    public let discovery: PlaylistDiscovery.Result
    /// The packages to run, in report order.
    public let packages: [PlaylistPackage]
    /// How many playlists they hold.
    public let total: Int
    /// The file standard input was spooled to, if `-` was given: shown as `-`.
    public let spooled: String?

    /// Discovers the playlists of `inputs` and takes `shard`'s share of them. `spooled` names the input
    /// that stands for standard input.
    public init(inputs: [String], discovery: PlaylistDiscovery, shard: Shard?, spooled: String? = nil) {
        var discovery = discovery
        discovery.unanchored = Set([spooled].compactMap { $0 })
        var discovered = discovery.discover(inputs)
        // A gate pointed at the wrong folder must not pass for one that found nothing wrong: an input with
        // no playlist is one that could not be read.
        if discovered.packages.isEmpty, discovered.problems.isEmpty {
            let reason =
                discovered.excluded.isEmpty
                ? "no *.m3u8 file there" : "no *.m3u8 file there that \(discovery.names[.exclude]) did not leave out"
            discovered.problems = inputs.map { IOError(path: $0, operation: "find a playlist in it", errno: ENOENT, reason: reason) }
        }
        self.discovery = discovered
        self.spooled = spooled
        let ordered = discovered.packages.sorted { $0.key < $1.key }
        packages = shard.map { shard in ordered.filter(shard.contains) } ?? ordered
        total = packages.reduce(0) { $0 + $1.playlistCount }
    }

    /// The name a path is shown with: `-` for the spooled standard input.
    public func shown(_ path: String) -> String { path == spooled ? "-" : path }

    /// `work` on each package, `jobs` at once; `consume` on each result in package order, returning how
    /// many playlists it covered. Once `stop` says so no package is started. Returns the playlists done.
    public func run<Output: Sendable>(
        jobs: Int, stop: @Sendable () -> Bool, work: @Sendable (PlaylistPackage) -> Output, consume: (Output) throws -> Int
    ) rethrows -> Int {
        var done = 0
        try OrderedParallel.run(packages, jobs: jobs, stop: stop, work: work) { output in
            done += try consume(output)
        }
        return done
    }
}

/// What a library run reads: its inputs, and how it goes over them.
public struct LibraryInput: Sendable {
    /// The playlists and directories to read (a spooled standard input among them, named by `spooled`).
    public var paths: [String]
    public var followSymlinks = false
    /// What the walk of a directory given leaves out.
    public var exclusion = Exclusion()
    /// The web server's document root on this disk: where a master's root-relative references (`/vod/…`)
    /// are read.
    public var root: String?
    public var shard: Shard?
    /// Packages worked on at once.
    public var jobs = 1
    /// The file standard input was spooled to, shown as `-`.
    public var spooled: String?
    /// How messages name settings.
    public var names = SettingNames()

    public init(paths: [String]) { self.paths = paths }

    /// The job over these inputs, discovered as `discovery` says (its names and links set from here).
    func job(_ discovery: PlaylistDiscovery = PlaylistDiscovery()) -> LibraryJob {
        var discovery = discovery
        discovery.followSymlinks = followSymlinks
        discovery.exclusion = exclusion
        discovery.root = root
        discovery.names = names
        return LibraryJob(inputs: paths, discovery: discovery, shard: shard, spooled: spooled)
    }
}

/// How far a library run got, and how it ended.
public struct RunResult: Sendable {
    public var status: RunStatus
    /// Playlists done, of those the run set out to do (fewer when it was stopped).
    public var done: Int
    public var total: Int
    /// Whether the run got through its packages (or was stopped in them), its report finished: a run that
    /// its inputs, its plan or its report stopped before did not.
    public var finished = false

    public init(status: RunStatus, done: Int, total: Int) {
        self.status = status
        self.done = done
        self.total = total
    }

    /// The playlists not reached, when the run stopped before its end.
    var notDone: Int? { done < total ? total - done : nil }
}

/// How a run ended, for its exit status.
public enum RunStatus: Sendable, Equatable {
    /// Everything done, nothing to complain of (exit 0).
    case succeeded
    /// Findings, or (`apply --check`) changes to make (exit 1).
    case findings
    /// An input, a plan, a write or a report failed (exit 2).
    case failed
}
