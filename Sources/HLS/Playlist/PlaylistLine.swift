/// What a URI line is to the playlist.
public enum URIRole: Hashable, Sendable {
    /// The URI of media segment number `index` (0-based, in file order).
    case segment(index: Int)
    /// The playlist of the `EXT-X-STREAM-INF` before it.
    case variant
}

/// One line as the playlist reader sees it: the raw bytes, what kind of line it is, and what the reader
/// learned from it. Valid until the next call to ``PlaylistReader/next()``.
///
/// A line holds no references, so handing one out per line costs no reference counting; the tag the
/// reader parsed for it is ``PlaylistReader/currentTag``.
public struct PlaylistLine {
    public var raw: RawLine
    public var kind: LineKind
    public var uriRole: URIRole?
    /// Bytes at the start of the line that parsing skips: a byte order mark (line 1), spaces before a tag.
    public var prefixLength: Int
    /// Bytes at the end of the line that parsing skips: spaces after a URI (reported, then read past).
    public var suffixLength = 0

    public init(raw: RawLine, kind: LineKind, uriRole: URIRole? = nil, prefixLength: Int = 0) {
        self.raw = raw
        self.kind = kind
        self.uriRole = uriRole
        self.prefixLength = prefixLength
    }

    /// The line's content without what parsing skips (``prefixLength``, ``suffixLength``).
    @inlinable
    public var content: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: raw.content[prefixLength..<(raw.content.count - suffixLength)])
    }

    /// A position in the line of playlist `path`; `column` is 1-based, in bytes of the line as written.
    public func location(in path: String, column: Int = 1) -> SourceLocation {
        SourceLocation(path: path, line: raw.number, column: column, offset: raw.offset + column - 1)
    }

    /// Parses the line's tag (issues are not reported; the reader reports them when it parses).
    public func parseTag() -> Tag? {
        guard case .tag = kind, raw.part == .whole else { return nil }
        return TagParser.parse(content).tag
    }

    /// The line's text (URI lines, comments); decoding replaces invalid UTF-8 with U+FFFD.
    public var text: String { String(decoding: content, as: UTF8.self) }
}
