import HLS

/// The findings about a package that finding and reading its playlists makes: what a master names that is
/// not a local media playlist skdpack can read, and a playlist the system cannot read or write.
public enum PackageDiagnostics {
    public static let unsafeReference = DiagnosticKind(
        id: "PKG-reference-outside", severity: .error,
        summary: "A master playlist references a playlist outside its directory (../): legal HLS, but skdpack reads and "
            + "writes only inside its input (a guard of skdpack's, not of the RFC).",
        specSection: "4.3.4.2")
    public static let rootRelativeReference = DiagnosticKind(
        id: "PKG-reference-not-local", severity: .info,
        summary: "A master playlist references a playlist skdpack cannot find from here: a root-relative URI (/…, "
            + "legal, resolved against the web server's root), or any reference of a master read from standard input.",
        specSection: "4.1")
    public static let missingReference = DiagnosticKind(
        id: "PKG-missing-playlist", severity: .error,
        summary: "A master playlist references a local playlist that is not there: a title on disk carries the "
            + "playlists its master names (skdpack's package rule; the RFC's URI line names a Media Playlist).",
        specSection: "skdpack: a title's playlists are published together (RFC 8216 4.3.4.2)")
    public static let masterReference = DiagnosticKind(
        id: "PKG-nested-master", severity: .error,
        summary: "A master playlist references a master playlist (another, or itself) where a media playlist belongs.",
        specSection: "4.3.4.2")
    public static let unreadable = DiagnosticKind(
        id: "PKG-unreadable", severity: .error,
        summary: "A playlist of the package could not be read or written (the operating system's reason is given).",
        specSection: "4.3.4.2")

    public static let all: [DiagnosticKind] = [unsafeReference, rootRelativeReference, missingReference, masterReference, unreadable]
}
