import CPIX
import HLS
import MP4
import SKDFiles
import SKDKeys
import SKDTemplate
import SKDValidation

/// A request the ``Planner`` cannot turn into a run: the setting to change and why, in words that name the
/// settings as the caller's ``SettingNames`` do (`--var-file token: … is empty` from `skdpack`). The value
/// of a variable is never in it (it may be a secret).
public struct RequestProblem: Error, Sendable, CustomStringConvertible {
    /// The setting to change.
    public var setting: Setting
    public var message: String
    public var description: String { message }

    public init(_ setting: Setting, _ message: String) {
        (self.setting, self.message) = (setting, message)
    }
}

/// The values a run's key URIs take and where they come from, as the caller gave them: plain words, as a
/// command line has them (`NAME=VALUE`, `NAME=FILE`, paths, patterns); the ``Planner`` reads and checks them.
public struct ValuesRequest: Sendable, Equatable {
    /// Values for the whole run, `NAME=VALUE`.
    public var values: [String] = []
    /// Values for the whole run read from files, `NAME=FILE` (a file's text, one final newline dropped).
    public var valueFiles: [String] = []
    /// A catalogue (CSV with a header row, or JSON) of values per title.
    public var catalog: String?
    /// A regular expression whose named groups, matched on each playlist's path, are values.
    public var pathPattern: String?
    /// A regular expression whose named groups, matched on each old FairPlay key URI, are values.
    public var match: String?

    public init(
        values: [String] = [], valueFiles: [String] = [], catalog: String? = nil, pathPattern: String? = nil, match: String? = nil
    ) {
        (self.values, self.valueFiles, self.catalog, self.pathPattern, self.match) = (values, valueFiles, catalog, pathPattern, match)
    }
}

/// What a `validate` run is asked to do, as plain values; ``Planner/validation(_:names:)`` makes its
/// ``ValidationOptions`` of them, or says which setting is wrong.
public struct ValidateRequest: Sendable, Equatable {
    /// Rule ids not to run.
    public var disabledRules: [String] = []
    public var warningsAsErrors = false
    public var maximumURILength = ValidationOptions().maximumURILength
    /// The template the FairPlay keys are held to: a shipped name, a template file or an inline URI template.
    public var template: String?
    /// The values the template's keys take (no ``ValuesRequest/match``: validate reads no old URIs).
    public var values = ValuesRequest()
    /// Hosts a key URI may name besides the template's.
    public var allowHosts: [String] = []
    /// Check the keys against the init segments (`MEDIA` rules).
    public var media = false
    /// Read the media segments (`SEG` rules).
    public var segments = false
    /// CPIX documents, or directories of them, the keys are checked against.
    public var cpix: [String] = []
    /// The most an init segment is read of.
    public var maximumInitSize = InitSegmentFile.defaultLimit
    /// The reader's limits.
    public var reader = ReaderOptions()

    public init() {}
}

/// What an `apply` run is asked to do, as plain values; ``Planner/apply(_:names:)`` makes its
/// ``ApplyOptions`` of them, or says which setting is wrong.
public struct ApplyRequest: Sendable, Equatable {
    /// The template the keys' URIs are made by: a shipped name, a template file or an inline URI template.
    public var template: String
    /// The values the keys' URIs take, and where they come from.
    public var values = ValuesRequest()
    /// Where the results go.
    public var destination: ApplyDestination = .check
    /// The playlists and directories given: an output directory inside one of them is refused.
    public var inputs: [String] = []
    /// Give clear media playlists a FairPlay key.
    public var assumeEncrypted = false
    /// Add the FairPlay session keys a master lacks.
    public var sessionKeys = false
    /// CPIX documents, or directories of them, that give each key period its key.
    public var cpix: [String] = []
    /// Where `{kid}` comes from instead: `media` (the init segments).
    public var kidFrom: String?
    /// The most an init segment is read of.
    public var maximumInitSize = InitSegmentFile.defaultLimit
    /// The reader's grammar findings to let pass.
    public var ignoredFindings: [String] = []
    /// How long to wait, in seconds, for a title another run holds.
    public var titleLockWait: Double = 30
    /// Validate each playlist as written.
    public var validatesWrites = false
    /// Keep every change's lines, for a report.
    public var keepsChangeDetails = true
    /// The reader's limits.
    public var reader = ReaderOptions()

    public init(template: String) {
        self.template = template
    }
}
