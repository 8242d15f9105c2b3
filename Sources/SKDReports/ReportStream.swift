import SKDReportModel

/// A report written as its playlists come, in the formats whose layout allows it (JSON and XML): memory
/// holds one playlist's entry, not the library's. Each call returns the bytes to append to the file.
public protocol ReportStream: AnyObject {
    /// The opening, up to the first playlist.
    func start() throws -> [UInt8]
    /// One playlist's entry (playlists come in report order: ``Report/Playlist/inReportOrder``).
    func add(_ playlist: Report.Playlist) throws -> [UInt8]
    /// The rest: the run and the summary, then the close.
    func finish(run: Report.Run, summary: Report.Summary) throws -> [UInt8]
}
