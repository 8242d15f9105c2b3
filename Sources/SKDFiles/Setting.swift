/// A setting of a run that a message may tell a user to change. The library names none of a command line's
/// flags: a message names a setting through the caller's ``SettingNames``, whose plain words serve library
/// users, and `skdpack` maps each setting to its flag in one place.
public enum Setting: String, Sendable, CaseIterable {
    /// Values given for the whole run.
    case values
    /// Values given for the whole run, read from files.
    case valueFiles
    /// Announcing every FairPlay key in its master.
    case sessionKeys
    /// The pattern read out of each existing key URI.
    case match
    /// The pattern read out of each playlist's path.
    case pathPattern
    /// Giving clear media a key.
    case assumeEncrypted
    /// Following symbolic links.
    case followSymlinks
    /// The patterns of files and folders a directory's walk leaves out.
    case exclude
    /// The CPIX documents given.
    case cpix
    /// Taking `{kid}` from the init segments.
    case kidFromMedia
    /// The destinations a run of many playlists may choose.
    case destinations
    /// The destinations that write a playlist somewhere else than where it is.
    case elsewhere
    /// Where root-relative references (`/vod/…`) are on this disk.
    case root
    /// Letting several titles share a content id.
    case allowSharedContentID
    /// The template the keys' URIs are made or checked by.
    case template
    /// The catalogue of values per title.
    case catalog
    /// Where the KID comes from (the init segments).
    case kidFrom
    /// Checking the keys against the init segments.
    case media
    /// The most an init segment is read of.
    case maximumInitSize
    /// A rule not to run.
    case disabledRule
    /// Where the rules are listed.
    case ruleList
    /// The longest key URI allowed.
    case maximumURILength
    /// How long to wait for a title another run holds.
    case lockWait
    /// The directory every playlist is written under.
    case output
    /// Writing each changed playlist where it is.
    case inPlace
    /// The key URI a render reads as a key's old one.
    case oldURI
    /// The KEYID a render gives the built-in `kid`.
    case kid

    /// The setting a value of `name` given for the run came by: a file's (`fromFiles` names those) or inline.
    public static func given(_ name: String, fromFiles: Set<String>) -> Setting { fromFiles.contains(name) ? .valueFiles : .values }

    /// The setting in plain words, for library users.
    public var plainWords: String {
        switch self {
        case .values: "a value given for the run"
        case .valueFiles: "a value read from a file for the run"
        case .sessionKeys: "the setting that adds session keys"
        case .match: "the match pattern"
        case .pathPattern: "the path pattern"
        case .assumeEncrypted: "the setting that assumes clear media encrypted"
        case .followSymlinks: "the setting that follows symbolic links"
        case .exclude: "the exclusion patterns"
        case .cpix: "a CPIX document given for the run"
        case .kidFromMedia: "the setting that takes the KID from the media"
        case .destinations: "in place, a directory, a check or a diff"
        case .elsewhere: "a directory or standard output"
        case .root: "the web server's document root"
        case .allowSharedContentID: "the setting that lets titles share a content id"
        case .template: "the template"
        case .catalog: "the catalogue"
        case .kidFrom: "the KID's source"
        case .media: "the setting that checks the init segments"
        case .maximumInitSize: "the init segment size limit"
        case .disabledRule: "a rule disabled"
        case .ruleList: "RuleRegistry.validationKinds"
        case .maximumURILength: "the key URI length limit"
        case .lockWait: "the wait for a title another run holds"
        case .output: "the output directory"
        case .inPlace: "the setting that writes in place"
        case .oldURI: "the old key URI"
        case .kid: "the KEYID"
        }
    }
}

/// How the caller names the settings of a run (``Setting``), for messages that tell a user what to change:
/// plain words by default; `skdpack` gives its flags (`--var`, `--match`, …).
public struct SettingNames: Sendable {
    private let name: @Sendable (Setting) -> String

    /// Names each setting by `name`.
    public init(_ name: @escaping @Sendable (Setting) -> String = \.plainWords) {
        self.name = name
    }

    public subscript(_ setting: Setting) -> String { name(setting) }

    /// Where a value for variable `name` can come from, for a message saying it has none.
    public func whereValuesComeFrom(for name: String) -> String {
        "give \(self[.values]) \(name)=…, a catalogue column, or a \(self[.pathPattern]) or \(self[.match]) group named \(name)"
    }
}
