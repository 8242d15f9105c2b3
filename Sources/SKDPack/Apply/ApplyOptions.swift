import HLS
import SKDFiles
import SKDKeys
import SKDReportModel
import SKDTemplate
import SKDValidation
import Synchronization

/// What `apply` is asked to do.
public struct ApplyOptions: Sendable {
    public var template: KeyTemplate
    public var variables: VariableSources
    /// Give a FairPlay key to media playlists without any key (clear media).
    public var assumeEncrypted: Bool
    /// Add missing FairPlay `EXT-X-SESSION-KEY`s to master playlists (as the template's `session_keys`).
    public var sessionKeys: Bool
    public var readerOptions: ReaderOptions
    /// Keep every ``ApplyChange`` in the outcome (the counts are always kept). A long key-rotated playlist
    /// has a change per key period, so a caller that only needs the counts turns this off and keeps memory
    /// flat whatever the playlist's length.
    public var keepsChangeDetails = true
    /// Collect the FairPlay keys a media playlist uses, for its master's session keys: needed only for the
    /// media of a package with a master (the runner sets it per package).
    public var collectsSessionKeys = true
    /// The CPIX documents and init segments `{kid}` and its kin come from (`--cpix`, `--kid-from media`).
    public var keyTruth = KeyTruth()
    /// Reader findings the run is told to let pass (`apply --disable`): a playlist with only these is
    /// still updated. Only ``ignorableKinds`` may be here.
    public var ignoredFindings: Set<DiagnosticID> = []

    /// What the run does with its findings (``FindingPolicy``): those let pass are not kept.
    public var findingPolicy: FindingPolicy { FindingPolicy(disabled: ignoredFindings) }
    /// Validate each playlist as written (every rule of `validate`, with the template and its values) and
    /// leave one with an error as it was: the promise that apply never writes a playlist `validate` rejects,
    /// for errors apply did not cause too, at the cost of a second read of each playlist written.
    public var validatesWrites = false
    /// How long a run rewriting in place waits for a title another run holds (``TitleLock``), in seconds,
    /// before it leaves the title as it is and says so.
    public var titleLockWait: Double = 30

    /// The reader's findings a run may let pass: grammar breaches on lines apply copies byte for byte (a
    /// tab in an EXTINF title, spaces in an attribute list). Not the reader's guards (limits, a file that
    /// is no playlist) nor the key grammar, which decide what apply reads and writes.
    public static let ignorableKinds: [DiagnosticKind] = ParseDiagnostics.all.filter { kind in
        kind.id.family == "HLS"
            && ![
                ParseDiagnostics.notAPlaylist, ParseDiagnostics.emptyPlaylist, ParseDiagnostics.lineTooLong,
                ParseDiagnostics.playlistTooLarge, ParseDiagnostics.tooManySegments, ParseDiagnostics.undefinedVariable,
                ParseDiagnostics.variantWithoutURI,
            ].contains(kind)
    }

    public init(
        template: KeyTemplate, variables: VariableSources = VariableSources(), assumeEncrypted: Bool = false,
        sessionKeys: Bool = false
    ) {
        self.template = template
        self.variables = variables
        self.assumeEncrypted = assumeEncrypted
        self.sessionKeys = sessionKeys
        var readerOptions = ReaderOptions()
        // apply checks every key it touches; the rest of the grammar is validate's business.
        readerOptions.parsesEveryTag = false
        self.readerOptions = readerOptions
    }

    /// What the run works out from these options when first needed (a compiled pattern), shared by every
    /// playlist and thread of the run: a copy of the options shares it.
    let derived = Derived()

    final class Derived: Sendable {
        private let uris = Mutex<KeyURIs?>(nil)
        private let secrets = Mutex<OldURISecrets?>(nil)

        /// The run's template compiled, with where its values come from (``KeyURIs``).
        func keyURIs(_ options: ApplyOptions) -> KeyURIs {
            uris.withLock { cached in
                if let cached { return cached }
                let made = KeyURIs(template: options.template, variables: options.variables, keyTruth: options.keyTruth)
                cached = made
                return made
            }
        }

        /// The secret forms of old key URIs (``OldURISecrets``).
        func oldSecrets(_ options: ApplyOptions) -> OldURISecrets {
            secrets.withLock { cached in
                if let cached { return cached }
                let made = OldURISecrets(current: options.template.definition)
                cached = made
                return made
            }
        }
    }

    /// Whether `uri` is one the template makes with the values given for the run (``KeyURIs/makes(_:)``).
    func makes(_ uri: String) -> Bool { derived.keyURIs(self).makes(uri) }

    /// Whether `uri` is one a run of this command wrote (``KeyURIs/wroteAlready(_:)``).
    func wroteAlready(_ uri: String) -> Bool {
        var uri = uri
        return uri.withUTF8 { derived.keyURIs(self).wroteAlready($0) }
    }

    /// What `validate` is told for a playlist this run writes: the template with the run's values.
    var writeValidation: ValidationOptions {
        var validation = ValidationOptions()
        validation.templateMatcher = derived.keyURIs(self).templateMatcher
        validation.allowHosts = template.definition.allowHosts
        validation.reader = readerOptions
        return validation
    }

    /// What the run hides in whatever it shows (``SKDTemplate/Redaction/ofRun(template:given:fromFiles:keyTruth:)``).
    public var redaction: Redaction {
        .ofRun(template: template.definition, given: variables.commandLine, fromFiles: variables.fromFiles, keyTruth: keyTruth)
    }
}

/// What apply did, or would do, to one playlist.
public struct PlaylistOutcome: Sendable {
    public var path: String
    public var kind: PlaylistKind
    /// The changes, in line order, when ``ApplyOptions/keepsChangeDetails``.
    public var changes: [ApplyChange] = []
    /// How many changes of each kind, always.
    public var counts = ChangeCounts()
    public var diagnostics: [Diagnostic] = []
    /// An error kept the playlist as it was.
    public var failed: Bool { diagnostics.contains { $0.severity == .error } }
    /// Whether its only errors say it was left as it was because another playlist of its title failed
    /// (`PKG-media-failed`, `PKG-title-failed`): a consequence, told after its cause.
    public var onlyFollowsTitle: Bool {
        let errors = diagnostics.filter { $0.severity == .error }
        let consequences: Set = [ApplyDiagnostics.mediaFailed.id, ApplyDiagnostics.titleFailed.id]
        return !errors.isEmpty && errors.allSatisfy { consequences.contains($0.id) }
    }
    /// The FairPlay keys the playlist uses once applied, for its master's session keys.
    public var fairPlayKeys: [KeyAttributes] = []
    /// The values of the template's secret variables met on the way, whatever their source: only ever used
    /// to hide them (``redact(_:)``).
    public var secretValues: Set<Secret> = []
    /// The content ids its keys got from the match or the path pattern (see ``SharedContentIDs``).
    public var contentIDsFromPatterns: Set<String> = []
    /// The FairPlay URIs its key periods use and the keys behind them, for the title's one-to-one check.
    public var keyMap = KeyMap()
    /// Whether its FairPlay URIs hold a secret (a value of the template's secret variable, a token in the
    /// template's text, a kept URI's token): a report then carries no digest of them (``Report/KeyURI``).
    public var keyURIsHoldSecrets = false

    public init(path: String, kind: PlaylistKind) {
        self.path = path
        self.kind = kind
    }

    public var changed: Bool { counts.total > 0 && !failed }

    /// Hides `redaction`'s secrets in the messages and in the changes kept.
    public mutating func redact(_ redaction: Redaction) {
        for index in diagnostics.indices { diagnostics[index].message = redaction.redact(diagnostics[index].message) }
        for index in changes.indices {
            // Again with the title's secrets, found since the change was recorded.
            changes[index].before = changes[index].before.map { redaction.redacted($0.text) }
            changes[index].after = changes[index].after.map { redaction.redacted($0.text) }
        }
    }

    /// The changes in line order, an insertion after what its line says.
    public mutating func sortChanges() {
        changes.sort { ($0.line, $0.action == .inserted ? 1 : 0) < ($1.line, $1.action == .inserted ? 1 : 0) }
    }

    /// Counts `change`, and keeps it if `keeping` (the change is made only then).
    public mutating func record(_ change: @autoclosure () -> ApplyChange, keeping: Bool) {
        let change = change()
        counts.add(change)
        if keeping { changes.append(change) }
    }

    /// Counts a change of `tag`, and keeps the change `make` makes if `keeping`.
    public mutating func record(tag: String, action: ApplyChange.Action, keeping: Bool, _ make: () -> ApplyChange) {
        counts.add(tag: tag, action: action)
        if keeping { changes.append(make()) }
    }
}

/// How many changes of each kind a playlist had.
public struct ChangeCounts: Hashable, Sendable {
    public var keysRewritten = 0
    public var keysInserted = 0
    public var keysRemoved = 0
    /// EXT-X-VERSION raised or added.
    public var versionChanges = 0

    public init() {}

    public var total: Int { keysRewritten + keysInserted + keysRemoved + versionChanges }

    public mutating func add(_ change: ApplyChange) { add(tag: change.tag, action: change.action) }

    public mutating func add(tag: String, action: ApplyChange.Action) {
        guard tag != "EXT-X-VERSION" else {
            versionChanges += 1
            return
        }
        switch action {
        case .rewritten: keysRewritten += 1
        case .inserted: keysInserted += 1
        case .removed: keysRemoved += 1
        }
    }
}
