import SKDFiles
import SKDKeys
import SKDReportModel
import SKDTemplate
import SKDValidation

/// Joining the reports of shards (`skdpack report merge`).
extension Report {
    public struct MergeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The report one run over all the shards' packages would have written: their playlists in report order,
    /// the summary over all of them; for the run, the first report's command, template and arguments (the
    /// caller removes what names the shard), the earliest start and the longest duration (shards run side
    /// by side).
    ///
    /// Only a whole set is merged, so that a merge that runs too early can never pass for the whole library:
    /// every report must be a shard (`I/N`) of one `N`, each shard exactly once, all of one run (the same
    /// command and template, and arguments the same by `sameArguments`). With `allowingMissingShards`, a set
    /// that lacks shards is merged anyway and the report says it is partial, and which shards it lacks.
    ///
    /// Unless `titlesShareKeys` (the run said its titles share their keys), the titles of different shards
    /// are held to each other as one run holds its titles (``RunKeyMap``): a FairPlay URI that two titles of
    /// different shards use, where their KEYIDs differ or they have none, is an `FPS-uri-two-titles` error at
    /// the later title's key line (in report order), naming the other; the merged report then fails.
    public static func merging(
        _ reports: [(name: String, report: Report)], allowingMissingShards: Bool = false, titlesShareKeys: Bool = false,
        sameArguments: ([String], [String]) -> Bool = { $0 == $1 }
    ) throws(MergeError) -> Report {
        guard let (firstName, first) = reports.first else { throw MergeError(description: "no reports to merge") }
        var shards: [Int: String] = [:]
        var count: (value: Int, name: String)?
        var seen: [String: String] = [:]
        for (name, report) in reports {
            guard report.schemaVersion == first.schemaVersion else {
                throw MergeError(description: "\(name) has schemaVersion \(report.schemaVersion), \(firstName) \(first.schemaVersion)")
            }
            guard report.run.command == first.run.command, report.run.template == first.run.template,
                sameArguments(report.run.arguments.map(\.text), first.run.arguments.map(\.text))
            else {
                throw MergeError(
                    description: "\(name) is of `\(report.run.command) \(report.run.arguments.map(\.text).joined(separator: " "))`, "
                        + "\(firstName) of `\(first.run.command) \(first.run.arguments.map(\.text).joined(separator: " "))`: not shards of one run"
                )
            }
            guard let text = report.run.shard, let shard = Shard(text) else {
                throw MergeError(
                    description:
                        "\(name) is not the report of a shard (a run of one of several shares of a library): there is nothing to merge it with"
                )
            }
            if let count, count.value != shard.count {
                throw MergeError(
                    description: "\(name) is shard \(shard) of \(shard.count), \(count.name) of \(count.value): shards of different runs")
            }
            count = (shard.count, name)
            if let earlier = shards.updateValue(name, forKey: shard.index) {
                throw MergeError(description: "shard \(shard) is given twice: \(earlier) and \(name)")
            }
            for playlist in report.playlists {
                if let earlier = seen.updateValue(name, forKey: playlist.path) {
                    throw MergeError(description: "\(playlist.path) is in \(earlier) and \(name): shards never share a playlist")
                }
            }
        }
        let total = count?.value ?? 0
        let missing = (0..<total).filter { shards[$0] == nil }.map { "\($0)/\(total)" }
        if !missing.isEmpty, !allowingMissingShards {
            throw MergeError(
                description: "missing shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")): a merge of part of a "
                    + "library would read like the whole (merge them when every shard has finished, or allow a partial merge)")
        }
        // Shards stopped before their end leave the whole run short by what they did not do.
        let notDone = reports.reduce(0) { $0 + ($1.report.run.notDone ?? 0) }
        let run = Run(
            command: first.run.command, arguments: first.run.arguments, template: first.run.template,
            startedAt: reports.map(\.report.run.startedAt).min() ?? first.run.startedAt,
            durationMilliseconds: reports.map(\.report.run.durationMilliseconds).max() ?? 0,
            partial: missing.isEmpty && notDone == 0 ? nil : true, missingShards: missing.isEmpty ? nil : missing,
            notDone: notDone == 0 ? nil : notDone)
        var playlists = reports.flatMap { entry in entry.report.playlists.map { ($0, entry.report.run.shard ?? "") } }
            .sorted { Playlist.inReportOrder($0.0, $1.0) }
        if !titlesShareKeys { holdTitlesToTheirKeys(&playlists) }
        return Report(tool: first.tool, run: run, playlists: playlists.map(\.0))
    }

    /// Adds to each playlist of `playlists` (each with its shard, in report order) the findings of its key
    /// URIs that titles of other shards before it have (``RunKeyMap``'s rule, across shards).
    static func holdTitlesToTheirKeys(_ playlists: inout [(Playlist, String)]) {
        var first: [String: (title: String, shard: String, keyID: String?, place: String)] = [:]
        var unchecked: (index: Int, line: Int, count: Int)?
        for index in playlists.indices {
            let (playlist, shard) = playlists[index]
            let title = AtomicFile.directory(of: playlist.package)
            var reported: Set<String> = []
            for uri in playlist.keyURIs ?? [] {
                guard let digest = uri.digest else {
                    unchecked = unchecked.map { ($0.index, $0.line, $0.count + 1) } ?? (index, uri.line, 1)
                    continue
                }
                guard let earlier = first[digest] else {
                    first[digest] = (title, shard, uri.keyID, "\(playlist.path):\(uri.line)")
                    continue
                }
                guard earlier.title != title, earlier.shard != shard, earlier.keyID == nil || earlier.keyID != uri.keyID,
                    reported.insert(digest).inserted
                else { continue }
                let message = RunKeyMap.message(other: "\(earlier.place) (shard \(earlier.shard))", ours: uri.keyID, theirs: earlier.keyID)
                playlists[index].0.diagnostics.append(
                    Finding(
                        rule: RunKeyMap.kind.id.rawValue, severity: .error, line: uri.line, column: 1,
                        message: Redaction.none.redacted(message)))
                playlists[index].0.status = .failed
            }
            playlists[index].0.diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        }
        // A URI with a token has no digest in a report (it would let a reader test guesses of the token): said once.
        if let (index, line, count) = unchecked {
            playlists[index].0.diagnostics.append(
                Finding(
                    rule: RunKeyMap.notComparedKind.id.rawValue, severity: .info, line: line, column: 1,
                    message: Redaction.none.redacted(
                        "\(count) FairPlay key URI\(count == 1 ? "" : "s") of the merged reports (counted once a playlist) "
                            + "hold\(count == 1 ? "s" : "") a token, so the reports carry no digest of \(count == 1 ? "it" : "them"): "
                            + "whether titles of different shards share one is not checked (run those titles in one job to check)")))
            playlists[index].0.diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        }
    }

    /// The findings of one FairPlay URI in two titles (``RunKeyMap``), and of URIs not compared, in report order.
    public var keyURIsSharedByTitles: [(path: String, finding: Finding)] {
        let rules = [RunKeyMap.kind.id.rawValue, RunKeyMap.notComparedKind.id.rawValue]
        return playlists.flatMap { playlist in
            playlist.diagnostics.filter { rules.contains($0.rule) }.map { (playlist.path, $0) }
        }
    }
}
