/// How a ``PlaylistReader`` reads.
public struct ReaderOptions: Sendable {
    /// Lines longer than this are passed through but not parsed, and reported.
    public var maximumLineLength: Int = LineReader.defaultMaximumLineLength
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
}
