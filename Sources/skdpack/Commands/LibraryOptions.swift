import ArgumentParser
import Glibc
import SKDFiles
import SKDPack

/// How `apply` and `validate` go over a library: how many packages at once, and which share of them.
struct LibraryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Process this many packages at once: 1 or more (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Take only share I of N (0-based) of the packages, by a stable hash of their paths; a package is never split.",
            valueName: "I/N"))
    var shard: String?

    @Flag(help: "No progress bar (it is shown only when standard error is a terminal).")
    var noProgress = false

    @Option(
        help: ArgumentHelp(
            "Leave out of a directory's walk the files and folders matching PATTERN (repeatable): a name at any depth (trailers, '*.bak.m3u8') or, with a /, a path from the directory given ('show-a/extras', '*/trailers/*').",
            valueName: "PATTERN"))
    var exclude: [String] = []

    /// `--jobs`, checked; the number of cores when not given.
    static func jobCount(_ jobs: Int?) throws -> Int {
        guard let jobs else { return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
        guard jobs >= 1 else { throw UsageFailure("--jobs must be at least 1") }
        return jobs
    }

    /// `--shard I/N`, checked.
    static func shard(_ text: String?) throws -> Shard? {
        guard let text else { return nil }
        guard let chosen = Shard(text) else {
            throw UsageFailure("--shard \(text): write I/N with 0 <= I < N, such as 0/4 (the first of four shares)")
        }
        return chosen
    }
}
