import HLS
import SKDKeys
import SKDTemplate

/// What `validate` checks and how strictly.
public struct ValidationOptions: Sendable {
    /// Findings of these rules are not made (or, for the reader's own findings, not kept).
    public var disabledRules: Set<DiagnosticID> = []
    /// Warnings count as errors (`--warnings-as-errors`).
    public var warningsAsErrors = false
    /// The longest FairPlay key URI accepted before `FPS-uri-length` speaks.
    public var maximumURILength = 2048
    /// With a template: every FairPlay key must be one it makes (`TPL-key-mismatch`).
    public var templateMatcher: TemplateMatcher?
    /// Each title's own values for the template (`--catalog`, `--path-pattern`): its keys must carry them,
    /// and a key with another title's is named with both.
    public var titleValues: VariableSources?
    /// Hosts the derived https license URLs may point at (`TPL-host-not-allowed`); empty: not checked.
    public var allowHosts: [String] = []
    /// The reader's options (line length limit, findings per kind).
    public var reader = ReaderOptions()
    /// The CPIX documents to check FairPlay keys against (`CPIX` rules), and the init segment store.
    public var keyTruth = KeyTruth()
    /// Read the init segments `EXT-X-MAP` names and check the keys against them (`MEDIA` rules).
    public var checksMedia = false
    /// Whether the segments of runs of plain lines are judged as runs (``SegmentRun``); `false`: line by line,
    /// the reference the runs are held to in tests.
    package var readsSegmentRuns = true
    /// Whether each media playlist's key periods are kept as reports show them (``Report/KeyPeriod``): a run
    /// that writes no report does without (the title's key map is noted either way).
    public var recordsKeyPeriods = true
    /// Read every media segment and check the playlist's claims about it (`SEG` rules); implies `checksMedia`.
    public var checksSegments = false {
        didSet { if checksSegments { checksMedia = true } }
    }

    /// The names of the values pinned from files (`--var-file`): secret whatever the template says.
    public var fromFiles: Set<String> = []

    public init() {}

    /// What the run does with its findings (``FindingPolicy``).
    public var findingPolicy: FindingPolicy { FindingPolicy(disabled: disabledRules, warningsAsErrors: warningsAsErrors) }

    /// What the run hides in whatever it shows (``SKDTemplate/Redaction/ofRun(template:given:fromFiles:keyTruth:)``):
    /// the values pinned are those given for it.
    public var redaction: Redaction {
        .ofRun(
            template: templateMatcher?.definition, given: (templateMatcher?.pinned ?? [:]).map { ($0.key, $0.value) },
            fromFiles: fromFiles, keyTruth: keyTruth)
    }
}
