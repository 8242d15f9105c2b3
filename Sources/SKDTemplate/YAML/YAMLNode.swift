/// A node of a YAML document, as skdpack's template files use YAML: scalars, mappings and sequences,
/// each with where it starts.
public indirect enum YAMLNode: Hashable, Sendable {
    /// A scalar: its text, and whether it was written plain (unquoted), which decides whether `true` is
    /// a boolean or a string.
    case scalar(String, plain: Bool, YAMLMark)
    case mapping([YAMLEntry], YAMLMark)
    case sequence([YAMLNode], YAMLMark)

    public var mark: YAMLMark {
        switch self {
        case .scalar(_, _, let mark), .mapping(_, let mark), .sequence(_, let mark): mark
        }
    }

    /// The text of a scalar.
    public var string: String? {
        if case .scalar(let text, _, _) = self { return text }
        return nil
    }

    /// A plain scalar read as a YAML 1.2 core-schema boolean.
    public var bool: Bool? {
        guard case .scalar(let text, true, _) = self else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }
}

/// One `key: value` of a mapping.
public struct YAMLEntry: Hashable, Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}

/// A position in a YAML text: 1-based line and column (in characters).
public struct YAMLMark: Hashable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Text that is not YAML skdpack reads, with where.
public struct YAMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var mark: YAMLMark
    /// What the reader does with the error: a flow collection still open at the end of a line goes on
    /// on the next one; anything else is final.
    enum Kind: Hashable, Sendable {
        case malformed
        case unclosedFlow
    }
    var kind: Kind = .malformed

    public init(message: String, mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }

    /// `[` or `{` not closed by the end of the text read so far.
    static func unclosedFlow(at mark: YAMLMark) -> YAMLError {
        var error = YAMLError(message: "a [ or { is never closed", mark: mark)
        error.kind = .unclosedFlow
        return error
    }

    public var description: String { "\(mark.line):\(mark.column): \(message)" }
}
