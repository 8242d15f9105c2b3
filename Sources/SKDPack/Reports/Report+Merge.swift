/// Joining the reports of shards (`skdpack report merge`).
extension Report {
    public struct MergeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The report one run over all the shards' packages would have written: their playlists in report order,
    /// the summary over all of them; for the run, the first report's command, template and arguments (the
    /// caller removes what names the shard), the earliest start and the longest duration (shards run side
    /// by side).
    public static func merging(_ reports: [Report]) throws(MergeError) -> Report {
        guard let first = reports.first else { throw MergeError(description: "no reports to merge") }
        var seen: [String: Int] = [:]
        for (number, report) in reports.enumerated() {
            guard report.schemaVersion == first.schemaVersion else {
                throw MergeError(
                    description: "report \(number + 1) has schemaVersion \(report.schemaVersion), the first \(first.schemaVersion)")
            }
            guard report.run.command == first.run.command, report.run.template == first.run.template else {
                throw MergeError(
                    description: "report \(number + 1) is of `\(report.run.command)` with template \(report.run.template ?? "none"), "
                        + "the first of `\(first.run.command)` with \(first.run.template ?? "none"): not shards of one run")
            }
            for playlist in report.playlists {
                if let earlier = seen.updateValue(number, forKey: playlist.path) {
                    throw MergeError(
                        description: "\(playlist.path) is in reports \(earlier + 1) and \(number + 1): shards never share a playlist")
                }
            }
        }
        let run = Run(
            command: first.run.command, arguments: first.run.arguments, template: first.run.template,
            startedAt: reports.map(\.run.startedAt).min() ?? first.run.startedAt,
            durationMilliseconds: reports.map(\.run.durationMilliseconds).max() ?? 0)
        return Report(tool: first.tool, run: run, playlists: reports.flatMap(\.playlists))
    }
}
