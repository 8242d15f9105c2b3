/// What a URI line is to the playlist.
public enum URIRole: Hashable, Sendable {
    /// The URI of media segment number `index` (0-based, in file order).
    case segment(index: Int)
    /// The playlist of the `EXT-X-STREAM-INF` before it.
    case variant
}

/// One line as the playlist reader sees it: the raw bytes, what kind of line it is, and what the reader
/// learned from it. Valid until the next call to ``PlaylistReader/next()``.
public struct PlaylistLine {
    public var raw: RawLine
    public var kind: LineKind
    /// The parsed tag, if the reader parsed it (every tag when ``ReaderOptions/parsesEveryTag``).
    public var tag: Tag?
    public var uriRole: URIRole?
    /// Bytes of a byte order mark at the start of the line (only ever on line 1), skipped by parsing.
    public var prefixLength: Int
    public let path: String

    /// The line's content without a leading byte order mark.
    public var content: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: raw.content[prefixLength...])
    }

    /// Where the line starts.
    public var location: SourceLocation { location(column: 1) }

    /// A position in the line; `column` is 1-based, counted in bytes of the line as written.
    public func location(column: Int) -> SourceLocation {
        SourceLocation(path: path, line: raw.number, column: column, offset: raw.offset + column - 1)
    }

    /// The tag, parsed now if the reader did not (issues are not reported).
    public func parseTag() -> Tag? {
        if let tag { return tag }
        guard case .tag = kind, raw.part == .whole else { return nil }
        return TagParser.parse(content).tag
    }

    /// The line's text (URI lines, comments); decoding replaces invalid UTF-8 with U+FFFD.
    public var text: String { String(decoding: content, as: UTF8.self) }
}
