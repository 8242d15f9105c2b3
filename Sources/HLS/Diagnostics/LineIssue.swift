/// A finding within one line, before it is placed in a file: the line parsers report these, and the
/// playlist reader turns them into ``Diagnostic``s with the path and line number it knows.
public struct LineIssue: Hashable, Sendable {
    public var kind: DiagnosticKind
    public var message: String
    /// 1-based UTF-8 byte column within the line.
    public var column: Int

    public init(_ kind: DiagnosticKind, _ message: String, column: Int) {
        self.kind = kind
        self.message = message
        self.column = column
    }

    /// The diagnostic for this issue on line `line` that starts at byte `lineOffset` of `path`.
    public func diagnostic(path: String, line: Int, lineOffset: Int) -> Diagnostic {
        kind(message, at: SourceLocation(path: path, line: line, column: column, offset: lineOffset + column - 1))
    }
}
