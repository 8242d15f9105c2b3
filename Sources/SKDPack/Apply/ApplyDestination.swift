/// Where `apply` puts its results.
public enum ApplyDestination: Sendable, Equatable {
    /// The one playlist given, to standard output; nothing at all if it has an error.
    case standardOutput
    /// Each changed file replaced atomically; unchanged files not touched.
    case inPlace
    /// Every processed playlist written under this directory at its path relative to its input.
    case directory(String)
    /// Nothing written: say what would change (exit 1 if anything would).
    case check
    /// A unified diff of what would change, to standard output; nothing written.
    case diff

    /// Whether everything goes to one stream (standard output, diffs), written by one job in order.
    public var writesOneStream: Bool { self == .standardOutput || self == .diff }
}

/// Where `apply` writes what is not a file of its own: the one playlist of ``ApplyDestination/standardOutput``
/// and the diffs of ``ApplyDestination/diff``.
public struct StreamOutput: Sendable {
    /// An open file descriptor the caller owns (a command line's standard output, say).
    public var fd: Int32
    /// Its name in messages.
    public var name: String
    /// A directory for the temporary file a playlist is written to before it is copied to `fd` (when
    /// `fd` is not a regular file that can be cut back if the playlist fails).
    public var temporaryDirectory: String

    public init(fd: Int32, name: String, temporaryDirectory: String) {
        self.fd = fd
        self.name = name
        self.temporaryDirectory = temporaryDirectory
    }
}
