/// A position in a playlist: 1-based line, 1-based UTF-8 byte column, and the 0-based byte offset from the
/// start of the input.
///
/// Columns count bytes, not characters, so that a location stays exact whatever the encoding of the line
/// (and a line that is not valid UTF-8 can still be pointed into).
public struct SourceLocation: Hashable, Sendable, Codable {
    /// The playlist's path as the user gave it, or `-` for standard input.
    public var path: String
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(path: String, line: Int, column: Int, offset: Int) {
        self.path = path
        self.line = line
        self.column = column
        self.offset = offset
    }
}

extension SourceLocation: CustomStringConvertible {
    /// `path:line:column`, the form editors and CI logs turn into links.
    public var description: String { "\(path):\(line):\(column)" }
}
