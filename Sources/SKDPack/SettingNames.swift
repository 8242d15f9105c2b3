/// How the caller names the settings of a run, for messages that tell a user what to change: the library
/// names none of a command line's flags itself. The defaults are plain words, for library users; the
/// `skdpack` command gives its flags (`--var`, `--match`, …).
public struct SettingNames: Sendable, Hashable {
    /// Values given for the whole run (`--var`).
    public var values: String
    /// The setting that announces every FairPlay key in its master (`--session-keys`).
    public var sessionKeys = "the setting that adds session keys"
    /// Values given for the whole run, read from files (`--var-file`).
    public var valueFiles = "a value read from a file for the run"
    /// The pattern read out of each existing key URI (`--match`).
    public var match: String
    /// The pattern read out of each playlist's path (`--path-pattern`).
    public var pathPattern: String
    /// The setting that gives clear media a key (`--assume-encrypted`).
    public var assumeEncrypted: String
    /// The setting that follows symbolic links (`--follow-symlinks`).
    public var followSymlinks: String
    /// The CPIX documents given (`--cpix`).
    public var cpix = "a CPIX document given for the run"
    /// The setting that takes `{kid}` from the init segments (`--kid-from media`).
    public var kidFromMedia = "the setting that takes the KID from the media"
    /// The destinations a run of many playlists may choose (`--in-place, --output DIR, --check or --diff`).
    public var destinations = "in place, a directory, a check or a diff"
    /// The destinations that write a playlist somewhere else than where it is (`--output DIR or standard output`).
    public var elsewhere = "a directory or standard output"
    /// The setting that says where root-relative references (`/vod/…`) are on this disk (`--root DIR`).
    public var root = "the web server's document root"
    /// The setting that lets several titles share a content id (`--allow-shared-content-id`).
    public var allowSharedContentID = "the setting that lets titles share a content id"

    public init(
        values: String = "a value given for the run", match: String = "the match pattern",
        pathPattern: String = "the path pattern", assumeEncrypted: String = "the setting that assumes clear media encrypted",
        followSymlinks: String = "the setting that follows symbolic links"
    ) {
        self.values = values
        self.match = match
        self.pathPattern = pathPattern
        self.assumeEncrypted = assumeEncrypted
        self.followSymlinks = followSymlinks
    }

    /// Where a value for variable `name` can come from, for a message saying it has none.
    public func whereValuesComeFrom(for name: String) -> String {
        "give \(values) \(name)=…, a catalogue column, or a \(pathPattern) or \(match) group named \(name)"
    }
}
