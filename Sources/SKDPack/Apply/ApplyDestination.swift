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

    /// Whether playlists are written to files (in place, or under a directory).
    public var writesFiles: Bool {
        if case .directory = self { return true }
        return self == .inPlace
    }
}
