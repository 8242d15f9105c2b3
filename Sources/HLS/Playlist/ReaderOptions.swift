/// How a ``PlaylistReader`` reads.
public struct ReaderOptions: Sendable, Equatable {
    /// Lines longer than this are passed through but not parsed, and reported.
    public var maximumLineLength: Int = LineReader.defaultMaximumLineLength
    /// Reading stops with an error (`HLS-playlist-too-large`) at the line that takes the input past this
    /// many bytes, so that a runaway input (a device, a file that keeps growing, a log saved as .m3u8)
    /// costs bounded time. What was read before that line is delivered; nothing after it.
    public var maximumPlaylistSize: Int = ReaderOptions.defaultMaximumPlaylistSize
    /// Reading stops with an error (`HLS-too-many-segments`) at the URI of the segment past this count.
    public var maximumSegmentCount: Int = ReaderOptions.defaultMaximumSegmentCount
    /// Parse every tag line and report every grammar problem (`cat`, `inspect`, `validate`). When false,
    /// only the tags the reader needs for its own state (keys, variable definitions) are parsed, and the
    /// caller parses the others it cares about with ``PlaylistLine/parseTag()``.
    public var parsesEveryTag: Bool = true
    /// After this many findings of one kind in one playlist, the rest are counted, not listed, so a binary
    /// file read as a playlist does not flood the output.
    public var maximumDiagnosticsPerKind: Int = 100
    /// Values the master playlist defines, for `EXT-X-DEFINE:IMPORT` in a media playlist.
    public var importedVariables: [String: String] = [:]

    public init() {}

    /// 1 GiB: a hundred times the largest real playlists (a day of two-second segments is about 10 MB).
    public static let defaultMaximumPlaylistSize = 1 << 30
    /// Five million: a year of six-second segments.
    public static let defaultMaximumSegmentCount = 5_000_000
}
