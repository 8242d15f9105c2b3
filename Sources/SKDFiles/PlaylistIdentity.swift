/// What identifies a playlist of a package: its path, its title, and where it was found.
public struct PlaylistIdentity: Hashable, Sendable {
    /// The path as the user gave it (or as found under a directory they gave).
    public var path: String
    /// The path of the title's master playlist, for a media playlist of a package: the title owns its
    /// playlists, whatever sub-folders its renditions live in.
    public var titlePath: String?
    /// The path relative to the input it was found under (a catalogue's `path` rows name it so, whatever
    /// the working directory), when it was found under one.
    public var relativePath: String?
    /// The title's folder relative to the input it was found under (`show-a/ep01`; empty when the input is
    /// the title's folder or its playlist): what a catalogue's `title_dir` names.
    public var titleRelativeDirectory: String?

    public init(path: String, titlePath: String? = nil, relativePath: String? = nil, titleRelativeDirectory: String? = nil) {
        self.path = path
        self.titlePath = titlePath
        self.relativePath = relativePath
        self.titleRelativeDirectory = titleRelativeDirectory
    }

    public var fileName: String { PathComponents.of(path).last ?? path }
    public var stem: String {
        let name = fileName
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
    /// The name of the title's folder: the directory of its master playlist, or, for a playlist on its own,
    /// the directory holding it. `.` for a playlist given without a directory.
    public var titleDirectory: String {
        let parts = PathComponents.of(titlePath ?? path)
        return parts.count >= 2 ? parts[parts.count - 2] : "."
    }
}
