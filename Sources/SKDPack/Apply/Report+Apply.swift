import HLS
import SKDKeys
import SKDReportModel
import SKDTemplate

extension Report.Playlist {
    /// The entry for what `apply` did to a playlist. A playlist that failed was left as it was: it carries
    /// no changes, so that the report counts what was done, as the command's own summary does.
    public init(_ outcome: PlaylistOutcome, package: String, redaction: Redaction) {
        self.init(
            path: outcome.path, package: package, kind: outcome.kind,
            status: outcome.failed ? .failed : outcome.changed ? .changed : .unchanged,
            changes: outcome.failed ? [] : outcome.changes, diagnostics: outcome.diagnostics.map { Report.Finding($0, redaction) },
            keyURIs: outcome.failed
                ? nil
                : Report.KeyURI.list(
                    outcome.keyMap.entries.filter { $0.place.playlist == outcome.path }.map {
                        ($0.place.line, $0.uri, $0.evidence.keyIDHex, outcome.keyURIsHoldSecrets)
                    }))
    }
}
