/// A value that holds a secret (a license token, a `secret: true` variable's value, a CPIX key's IV): its only
/// text form is ``placeholder``, so that a message, a report field, a diff line or a log built from it by
/// interpolation, `description`, `dump` or a mirror shows `REDACTED`. It is not `Encodable`: no report can
/// encode it.
///
/// The clear value is ``revealed``: a visible call, used only where a redaction learns what to hide and where
/// a captured value is compared with a secret. Each use is listed, with its reason, in the test that fails on
/// a new one (`SecretTypeTests.reveals`).
public struct Secret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What a secret is shown as.
    public static let placeholder = "REDACTED"

    private let clear: [UInt8]

    public init(_ text: String) { clear = Array(text.utf8) }

    public var isEmpty: Bool { clear.isEmpty }
    public var description: String { Self.placeholder }
    public var debugDescription: String { Self.placeholder }
    public var customMirror: Mirror { Mirror(self, children: []) }

    /// The clear text: see the type's reviewed uses.
    public var revealed: String { String(decoding: clear, as: UTF8.self) }
}
