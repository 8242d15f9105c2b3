import CPIX
import HLS
import SKDFiles
import SKDKeys
import SKDTemplate

/// A validation rule: a kind of finding, and the code that looks for it while a playlist streams by.
///
/// Each rule lives in a file of its own and is listed once in ``RuleRegistry``; ``PlaylistValidator`` runs
/// them. A rule instance sees one playlist: the tags as they come (`tag`), the segment URIs (`segment`), the
/// runs of plain segments the reader hands out at once (`segments`, by default each of their lines to `tag` and
/// `segment`), and the end (`finish`).
protocol ValidationRule: Sendable {
    /// The rule's id, default severity, summary and spec section.
    static var kind: DiagnosticKind { get }
    init()
    /// A tag line, parsed.
    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext)
    /// A segment's URI line: the keys in force apply to it.
    mutating func segment(at line: PlaylistLine, in context: RuleContext)
    /// The end of the playlist.
    mutating func finish(in context: RuleContext)
    /// Any whole line read on its own (a tag, a URI, a comment) whose bytes are not all ASCII.
    mutating func text(_ line: PlaylistLine, in context: RuleContext)
    /// The segments of a run of plain lines (``SegmentRun``), given to a rule that takes `EXTINF` or watches
    /// segments: in place of `tag` for each `EXTINF` and `segment` for each URI, which the default calls
    /// one after the other (``replay(_:segments:in:)``), as the line-by-line path would. A rule whose calls
    /// change nothing after the first segment of a run replays that one; one that reads every duration reads
    /// it from the run.
    mutating func segments(_ run: SegmentRun, in context: RuleContext)
    /// What a key-truth rule checks against (it runs only when the run has it, and its `segment` is
    /// called at the first segment of each key period only); `nil` for every other rule.
    static var keyTruth: KeyTruthSource? { get }
    /// The tags `tag` is called with; `nil` (the default) for every tag. A long playlist has an EXTINF per
    /// segment, and a rule called for each through its existential costs: most rules name theirs.
    static var tags: Set<TagName>? { get }
    /// Whether `segment` is called (the default); a rule without one says `false`, for the same reason.
    static var watchesSegments: Bool { get }
}

/// What a key-truth rule needs: the init segments (`--media`), a CPIX document (`--cpix`), or every media
/// segment (`--segments`: its rules are called at every segment, not once per key period).
enum KeyTruthSource {
    case media, cpix, segments
}

extension ValidationRule {
    static var keyTruth: KeyTruthSource? { nil }
    static var tags: Set<TagName>? { nil }
    static var watchesSegments: Bool { true }
    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {}
    mutating func segment(at line: PlaylistLine, in context: RuleContext) {}
    mutating func finish(in context: RuleContext) {}
    mutating func text(_ line: PlaylistLine, in context: RuleContext) {}
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, in: context) }

    /// Calls `tag` with each `EXTINF` of `run` (where the rule takes it) and `segment` with each URI (where it
    /// watches segments), in order, up to and including the URI of the run's `segments`th segment.
    mutating func replay(_ run: SegmentRun, segments: Int = .max, in context: RuleContext) {
        let takesDurations = Self.tags?.contains(.extInf) ?? true
        var replayed = 0
        run.forEachEvent { event in
            switch event {
            case .extInf(let raw, _):
                guard takesDurations else { return true }
                tag(TagParser.tag(ofChecked: raw.content, spans: nil), at: event.line, in: context)
            case .uri:
                if Self.watchesSegments { segment(at: event.line, in: context) }
                replayed += 1
                if replayed == segments { return false }
            }
            return true
        }
    }
}

/// What a rule can see of the playlist besides the line at hand, and where it reports.
final class RuleContext {
    let path: String
    let reader: PlaylistReader
    /// The longest FairPlay key URI accepted before `FPS-uri-length` speaks.
    let maximumURILength: Int
    private(set) var findings: [Diagnostic] = []
    /// The line whose tag the rules see with `{$name}` references substituted: its columns are not the file's.
    var substitutedLine: Int?
    /// Findings per rule beyond this many are counted, not listed: a 2-million-segment playlist that breaks
    /// a rule on every segment must not turn into a 2-million-line report.
    /// At most the reader's number of findings of a kind, as the reader keeps its own.
    private var cap: FindingCap

    /// The template FairPlay keys must come from, if one was given.
    let templateMatcher: TemplateMatcher?
    /// The values this playlist's title must have made its keys with (``ValidationOptions/titleValues``),
    /// with where each comes from: not those given on the command line, which are stronger than a title's
    /// own (the template matcher pins them).
    let expectedValues: [String: TemplateValue]
    /// Every title's values, to name the title whose values a key carries.
    let titleValues: VariableSources?
    /// With `--catalog`: this playlist's title directory when the catalogue has no row for it.
    let titleWithoutRow: String?
    /// The typed view of the tag the rules are given, when it is a key tag (`EXT-X-KEY`, `EXT-X-SESSION-KEY`):
    /// read once for every rule that looks at keys.
    var key: KeyOnLine?
    /// Values of the template's secret variables found in the playlist's keys, to hide in what is shown.
    var secretValues: Set<Secret> = []
    /// Hosts license URLs may point at; empty when not checked.
    let allowHosts: [String]

    /// With `--media` or `--cpix`: the init segments and the CPIX keys of this playlist.
    let keyTruth: KeyTruthContext?
    /// With `--segments`: the media segments, each read once.
    let segments: SegmentContext?

    init(
        path: String, reader: PlaylistReader, options: ValidationOptions, maximumPerKind: Int, tracks: [TrackContext] = [],
        identity: PlaylistIdentity? = nil
    ) {
        self.path = path
        self.titleValues = options.titleValues
        let pinned = options.templateMatcher?.pinned ?? [:]
        let identity = identity ?? PlaylistIdentity(path: path)
        self.expectedValues = (options.titleValues?.playlistValues(for: identity) ?? [:]).filter { pinned[$0.key] == nil }
        self.titleWithoutRow = options.titleValues?.catalog.flatMap { $0.row(for: identity) == nil ? identity.titleDirectory : nil }
        self.keyTruth =
            options.checksMedia || !options.keyTruth.documents.isEmpty
            ? KeyTruthContext(path: path, truth: options.keyTruth, checksMedia: options.checksMedia, tracks: tracks) : nil
        self.segments = options.checksSegments ? SegmentContext(path: path) : nil
        self.reader = reader
        self.maximumURILength = options.maximumURILength
        self.templateMatcher = options.templateMatcher
        self.allowHosts = options.allowHosts
        self.cap = FindingCap(limit: maximumPerKind)
    }

    /// Reports a finding of `kind` on `line` at `column` (1-based, in bytes of the line as written).
    func report(_ kind: DiagnosticKind, _ message: String, line: PlaylistLine, column: Int = 1) {
        guard line.raw.number != substitutedLine else {
            report(kind, message + " (after {$variable} substitution)", at: line.location(in: path))
            return
        }
        report(kind, message, at: line.location(in: path, column: column))
    }

    /// Reports a finding of `kind` at `location`.
    func report(_ kind: DiagnosticKind, _ message: String, at location: SourceLocation) {
        if cap.admits(kind.id, severity: kind.severity, at: location) { findings.append(kind(message, at: location)) }
    }

    /// One finding per rule that made more than the limit, saying how many were left out.
    func reportSuppressed() {
        findings += cap.summaries()
    }

    /// `column` of `line` as the file has it: 1 on a line whose tag was read after substitution.
    func fileColumn(_ column: Int, on line: PlaylistLine) -> Int {
        line.raw.number == substitutedLine ? 1 : column
    }

    /// The location of the start of a line already read.
    func location(line: Int, offset: Int) -> SourceLocation {
        SourceLocation(path: path, line: line, column: 1, offset: offset)
    }

    /// Where on `line` column `column` is, kept by a rule that reports at the end of the playlist.
    func place(_ line: PlaylistLine, column: Int = 1) -> RulePlace {
        let column = fileColumn(column, on: line)
        return RulePlace(line: line.raw.number, column: column, offset: line.raw.offset + column - 1)
    }

    /// Reports a finding of `kind` at a place kept earlier.
    func report(_ kind: DiagnosticKind, _ message: String, at place: RulePlace) {
        report(kind, message, at: SourceLocation(path: path, line: place.line, column: place.column, offset: place.offset))
    }
}

extension RuleContext {
    /// The media segment of the URI `line` (read once, whichever rule asks first); `nil` without `--segments`.
    func segment(at line: PlaylistLine) -> SegmentContext.Segment? {
        guard let segments, let truth = keyTruth else { return nil }
        var uri = String(decoding: line.content, as: UTF8.self)
        if VariableScope.mayReference(uri) { uri = reader.variables.substitute(uri).text }
        return segments.segment(at: line, uri: uri, map: truth.initSegment, keys: truth.period(self))
    }
}

/// A line and column a rule remembers, to report there once it has seen the rest of the playlist.
struct RulePlace {
    var line: Int
    var column: Int
    var offset: Int
}

/// The key tag of the line the rules are given, read once (``RuleContext/key``). A class: each of the dozen
/// rules that look at a key reads it by reference, where a copy of a ``KeyTag`` retained and released each of
/// its strings (a sixth of validate's instructions on a key-rotated playlist).
final class KeyOnLine {
    let tag: KeyTag
    /// Whether it is a FairPlay key (``FairPlay/isFairPlayKey(_:)``), told once.
    let isFairPlay: Bool

    init(_ tag: KeyTag) {
        self.tag = tag
        isFairPlay = FairPlay.isFairPlayKey(tag)
    }

    var method: String { tag.method }
    var uri: String? { tag.uri }
    var iv: String? { tag.iv }
    var keyFormat: String { tag.keyFormat }
    var keyFormatVersions: String? { tag.keyFormatVersions }
    var hasExplicitKeyFormat: Bool { tag.hasExplicitKeyFormat }
    var isSessionKey: Bool { tag.isSessionKey }
    var isClear: Bool { tag.isClear }
}
