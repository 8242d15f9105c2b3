/// Where a run's report goes, playlist by playlist (the report writers' files are one).
public protocol ReportSink: AnyObject {
    /// One playlist, in report order.
    func add(_ playlist: Report.Playlist) throws
    /// Ends the report, with what the run was.
    func finish(run: Report.Run) throws
    /// Leaves nothing of a report that could not be finished.
    func discard()
}
