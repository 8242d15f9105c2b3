import FoundationEssentials
import Glibc
import SKDFiles
import SKDPack
import SKDReportModel
import SKDTemplate

/// When a run started and how long it took: the only volatile part of a report.
struct RunClock {
    private let started = Date()
    private let start = RunClock.monotonicNanoseconds()

    /// The `run` section of a report for `command`, with the arguments given after it.
    func run(command: String, arguments: [Redacted], template: Redacted?, shard: String?) -> Report.Run {
        let elapsed = (RunClock.monotonicNanoseconds() - start) / 1_000_000
        return Report.Run(
            command: command, arguments: arguments, template: template,
            startedAt: started.formatted(.iso8601), durationMilliseconds: Int(elapsed), shard: shard.flatMap(Shard.init)?.description)
    }

    /// The arguments after the subcommand's name, as the user typed them.
    static var subcommandArguments: [String] { Array(CommandLine.arguments.dropFirst(2)) }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
