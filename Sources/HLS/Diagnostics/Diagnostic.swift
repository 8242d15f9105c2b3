/// How much a finding matters. Ordered: `info < warning < error`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info
    case warning
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// The stable identifier of a kind of finding, such as `HLS-attribute-whitespace`.
///
/// Identifiers never change meaning once published: reports, `--disable` flags and CI baselines refer to
/// them. The prefix before the first `-` is the rule family (`HLS`, `KEY`, `FPS`, `TPL`, `PKG`).
public struct DiagnosticID: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The rule family: the part before the first `-`.
    public var family: Substring { rawValue.prefix { $0 != "-" } }
    public var description: String { rawValue }

    public static func < (lhs: DiagnosticID, rhs: DiagnosticID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A problem found in a playlist, as data: what, how bad, where, and what to do about it.
///
/// Content problems are never thrown: a reader records a diagnostic and carries on, so one bad line never
/// hides the findings after it.
public struct Diagnostic: Hashable, Sendable, Codable {
    public var id: DiagnosticID
    public var severity: Severity
    /// A sentence that says what is wrong and what to change.
    public var message: String
    public var location: SourceLocation

    public init(id: DiagnosticID, severity: Severity, message: String, location: SourceLocation) {
        self.id = id
        self.severity = severity
        self.message = message
        self.location = location
    }
}

extension Diagnostic: CustomStringConvertible {
    /// The compiler-style form `path:line:col: severity: message [ID]`.
    public var description: String {
        "\(location): \(severity.rawValue): \(message) [\(id)]"
    }
}

extension Diagnostic {
    /// A character's code as messages name it, as Unicode writes it: `U+000A`, `U+1F600`.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
