import CPIX
import Glibc
import HLS
import SKDBytes
import SKDFiles
import SKDKeys
import SKDReportModel
import SKDTemplate

/// Validates one playlist in a single streaming pass: the reader's own findings (encoding, grammar, tag
/// values) and those of every enabled rule of ``RuleRegistry``, in line order.
public enum PlaylistValidator {
    /// The findings for the playlist read from `source`, shown as `path`; `tracks` are what its master
    /// says it carries (for the `CPIX` rules); `title` is the path of its title's master, for the values
    /// its title must have (``ValidationOptions/titleValues``).
    public static func validate(
        _ source: any ByteSource, path: String, options: ValidationOptions = ValidationOptions(), tracks: [TrackContext] = [],
        title: String? = nil, identity: PlaylistIdentity? = nil
    ) throws(IOError) -> PlaylistValidation {
        var readerOptions = options.reader
        readerOptions.parsesEveryTag = true
        let reader = PlaylistReader(source: source, path: path, options: readerOptions)
        let context = RuleContext(
            path: path, reader: reader, options: options, maximumPerKind: readerOptions.maximumDiagnosticsPerKind, tracks: tracks,
            identity: identity ?? PlaylistIdentity(path: path, titlePath: title))
        var readerFindings: [Diagnostic] = []
        reader.onDiagnostic = { readerFindings.append($0) }
        var keys = KeyFacts()
        var presentation = PresentationFacts()
        var variants = VariantFacts()
        var keyPeriods = KeyPeriodLog(records: options.recordsKeyPeriods)
        /// The line of each EXT-X-DEFINE, by the name it defines: a reference made before it is said so.
        var definedAt: [String: Int] = [:]
        let enabled = RuleRegistry.playlistRules.filter { rule in
            options.findingPolicy.keeps(rule.kind.id) && (rule.keyTruth.map { needs in Self.runs(needs, options) } ?? true)
        }
        // A segment rule looks at every segment, as a line rule does.
        let lineRules = enabled.filter { $0.keyTruth == nil || $0.keyTruth == .segments }
        var rules: [any ValidationRule] = lineRules.map { $0.init() }
        var dispatch = RuleDispatch(lineRules)
        // The key-truth rules look at each key period once, at its first segment: they are called then,
        // not at every segment of a long playlist.
        let periodTypes = enabled.filter { $0.keyTruth == .media || $0.keyTruth == .cpix }
        var periodRules: [any ValidationRule] = periodTypes.map { $0.init() }
        var periodDispatch = RuleDispatch(periodTypes)
        var periodSeen = -1

        let oldSecrets = OldURISecrets(current: options.templateMatcher?.definition)
        func judge(_ tag: Tag, at line: PlaylistLine) {
            // A key tag read into its typed view once, for every rule.
            context.key = KeyTag(tag).map(KeyOnLine.init)
            // A key URI of a form with a secret (an ExpressPlay token) has it hidden in every message.
            if let uri = context.key?.uri {
                context.secretValues.formUnion(oldSecrets.secrets(in: uri))
            }
            if let truth = context.keyTruth {
                if tag.name == .key { truth.noteKey() }
                if tag.name == .map, let map = MapTag(tag) { truth.noteMap(map, line: line.raw.number) }
            }
            context.segments?.note(tag)
            if tag.name == .define, let name = tag.quotedString("NAME") ?? tag.quotedString("IMPORT") ?? tag.quotedString("QUERYPARAM"),
                definedAt[name] == nil
            {
                definedAt[name] = line.raw.number
            }
            for index in dispatch.rules(for: tag.name) { rules[index].tag(tag, at: line, in: context) }
            for index in periodDispatch.rules(for: tag.name) { periodRules[index].tag(tag, at: line, in: context) }
            keys.note(context.key?.tag, line: line.raw.number)
            presentation.note(tag, line: line)
            variants.note(tag, line: line.raw.number)
            keyPeriods.note(tag)
        }
        // After the first segment, the reader hands out runs of plain segment lines at once, which the rules
        // that look at segments read as runs (unless media is read: its rules look at each segment's file).
        let readsRuns = options.readsSegmentRuns && context.keyTruth == nil && context.segments == nil
        var run = SegmentRun()
        func judge(segmentsOf lines: LineRun) {
            run.read(lines, segmentCount: reader.segmentCount)
            keyPeriods.segments(run, reader: reader)
            // What reading an EXTINF as a tag does to the context: no key tag read, no line substituted.
            if run.extInfCount > 0 {
                (context.key, context.substitutedLine) = (nil, nil)
            }
            for index in dispatch.runRules { rules[index].segments(run, in: context) }
        }
        var continued: [UInt8]?
        var isPlaylist = true
        // Lines whose attribute lists have spaces only beside a `,` or an `=`: read as meant.
        var spacedAsMeant: Set<Int> = []
        while true {
            let item =
                try readsRuns && continued == nil && reader.segmentCount > 0 ? reader.nextItem() : reader.next().map(PlaylistItem.line)
            guard let item else { break }
            guard case .line(let line) = item else {
                if case .run(let lines) = item { judge(segmentsOf: lines) }
                continue
            }
            // A file that is not a playlist is said to be so, once: no rule reads its bytes as lines.
            if line.raw.number == 1, readerFindings.contains(where: { $0.id == ParseDiagnostics.notAPlaylist.id }) {
                isPlaylist = false
                break
            }
            let held = continued
            continued = nil
            if line.raw.part == .whole, !Bytes.isASCII(line.content) {
                for index in rules.indices { rules[index].text(line, in: context) }
            }
            switch line.kind {
            case .tag(_?):
                guard line.raw.part == .whole else { continue }
                // (Read as meant only where the space is the line's one garbling finding: a lower-case name or an
                // open quote beside it still garbles the list.)
                let garblings = readerFindings.reversed().prefix(while: { $0.location.line == line.raw.number }).filter {
                    Self.garbling.contains($0.id)
                }
                if !garblings.isEmpty, garblings.allSatisfy({ $0.id == ParseDiagnostics.attributeWhitespace.id }),
                    Self.spacedOnlyBesideDelimiters(line.content)
                {
                    spacedAsMeant.insert(line.raw.number)
                }
                // A tag cut by a `\` (one finding, the reader's) is judged once its rest is read.
                if reader.continuesOnNextLine {
                    continued = Array(line.content.dropLast())
                    continue
                }
                let stray = readerFindings.reversed().prefix { $0.location.line == line.raw.number }.contains {
                    $0.id == ParseDiagnostics.tabCharacter.id || $0.id == ParseDiagnostics.controlCharacter.id
                }
                guard let tag = Self.tagAsRead(line, by: reader, context: context, stray: stray) else { continue }
                judge(tag, at: line)
            case .comment where held != nil:
                judge((held! + Array(line.content)).withUnsafeBytes { TagParser.parse($0).tag }, at: line)
            case .uri where line.uriRole == .variant:
                variants.noteURI(String(decoding: line.content, as: UTF8.self))
            case .uri:
                keyPeriods.segment(at: line.raw.number, reader: reader, truth: context.keyTruth)
                for index in dispatch.segmentRules { rules[index].segment(at: line, in: context) }
                if let truth = context.keyTruth, truth.serial != periodSeen {
                    periodSeen = truth.serial
                    for index in periodRules.indices { periodRules[index].segment(at: line, in: context) }
                }
            default:
                continue
            }
        }
        if isPlaylist {
            for index in rules.indices { rules[index].finish(in: context) }
            for index in periodRules.indices { periodRules[index].finish(in: context) }
            context.reportSuppressed()
        }

        // A line the reader could not read as written (its bytes, or its attribute list) is reported for
        // that; what rules then make of it is the same mistake again.
        // A reference the reader found undefined, defined further down: said so (the variable exists; its
        // EXT-X-DEFINE is too late, rfc8216bis 4.3: a reference is to a variable defined before it).
        for index in readerFindings.indices where readerFindings[index].id == ParseDiagnostics.undefinedVariable.id {
            let message = readerFindings[index].message
            guard message.hasPrefix("{$"), let close = message.firstIndex(of: "}") else { continue }
            let name = String(message[message.index(message.startIndex, offsetBy: 2)..<close])
            guard let line = definedAt[name], line > readerFindings[index].location.line else { continue }
            readerFindings[index].message =
                "{$\(name)} is used before it is defined: its EXT-X-DEFINE is at line \(line); move the EXT-X-DEFINE above its first use"
        }
        // A space beside a comma or an `=` is a mistake of its own: the line is read as its author meant it,
        // and what the rules find in it (FPS-method, a template mismatch) is another.
        let garbled = Set(
            readerFindings.filter { Self.garbling.contains($0.id) && !spacedAsMeant.contains($0.location.line) }.map(\.location.line))
        let ruleFindings = garbled.isEmpty ? context.findings : context.findings.filter { !garbled.contains($0.location.line) }
        // The secrets pinned with --var and those found in the playlist's own keys (a token where the
        // template has its secret variable) are hidden in every message.
        let redaction = options.redaction.adding(context.secretValues)
        let findings = options.findingPolicy.applied(to: readerFindings + ruleFindings, hiding: redaction)
        var validation = PlaylistValidation(path: path, kind: reader.kind, diagnostics: Self.inLineOrder(findings), keys: keys)
        validation.presentation = presentation
        validation.redaction = redaction
        validation.measured = context.segments.map { $0.summary() }
        validation.variants = variants
        validation.keyPeriods = keyPeriods.redacted(redaction)
        validation.keyUses = keyPeriods.keyUses
        return validation
    }

    /// The tag of `line` with its `{$name}` references replaced, so that rules judge the values players
    /// see (`KEYFORMAT="{$fps}"` is FairPlay's when `fps` says so). Columns of a substituted line no longer
    /// match the file, so the context places that line's findings at column 1. A key whose references
    /// cannot all be resolved here (IMPORT, QUERYPARAM, undefined) is left to the reader's findings.
    ///
    /// A line with a `stray` tab or control character (reported by the reader) is read without it, as its
    /// author meant it: the attributes after it are not lost to the rules, which would report their
    /// absence elsewhere as more mistakes.
    private static func tagAsRead(_ line: PlaylistLine, by reader: PlaylistReader, context: RuleContext, stray: Bool) -> Tag? {
        context.substitutedLine = nil
        if stray {
            let cleaned = line.content.filter { $0 >= 0x20 && $0 != 0x7F }
            return cleaned.withUnsafeBytes { TagParser.parse($0).tag }
        }
        // Most tag lines hold no brace: a byte scan spares them a String.
        let content = line.content
        guard let base = content.baseAddress, memchr(base, Int32(UInt8(ascii: "{")), content.count) != nil else {
            return reader.currentTag
        }
        let text = line.text
        guard VariableScope.mayReference(text) else { return reader.currentTag }
        let substitution = reader.variables.substitute(text)
        let tag = Array(substitution.text.utf8).withUnsafeBytes { TagParser.parse($0).tag }
        if !substitution.undefined.isEmpty || !substitution.unresolved.isEmpty, KeyTag(tag) != nil {
            return nil
        }
        context.substitutedLine = line.raw.number
        return tag
    }

    /// The reader's findings that leave a line unread as its author meant it. (A tag behind spaces, or with
    /// a stray tab or control character, is read without them.)
    /// Whether every space or tab outside quotes in a tag's attribute list stands beside a `,` or an `=` (or
    /// at its ends): the parser reads such a list as its author meant it. A space inside a value
    /// (`METHOD=SAMPLE -AES`) cuts the value, and what rules make of the rest is the same mistake again.
    static func spacedOnlyBesideDelimiters(_ content: UnsafeRawBufferPointer) -> Bool {
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "=")]
        var index = colon + 1
        var inQuotes = false
        while index < content.count {
            let byte = content[index]
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            guard !inQuotes, isSpace(byte) else {
                index += 1
                continue
            }
            let start = index
            while index < content.count, isSpace(content[index]) { index += 1 }
            let before = start == colon + 1 ? nil : content[start - 1]
            let after = index == content.count ? nil : content[index]
            guard before == nil || after == nil || delimiters.contains(before!) || delimiters.contains(after!) else { return false }
        }
        return true
    }

    private static let garbling: Set<DiagnosticID> = [
        ParseDiagnostics.attributeSyntax.id, ParseDiagnostics.unterminatedQuote.id, ParseDiagnostics.attributeWhitespace.id,
        ParseDiagnostics.invalidUTF8.id, ParseDiagnostics.lineTooLong.id,
    ]

    /// Whether a rule that needs `source` runs with `options`.
    private static func runs(_ source: KeyTruthSource, _ options: ValidationOptions) -> Bool {
        switch source {
        case .media: options.checksMedia
        case .cpix: !options.keyTruth.documents.isEmpty
        case .segments: options.checksSegments
        }
    }

    /// Sorted by line, then column; findings at the same place keep the order they were made in.
    static func inLineOrder(_ findings: [Diagnostic]) -> [Diagnostic] {
        findings.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.location, rhs.element.location)
            return (a.line, a.column, lhs.offset) < (b.line, b.column, rhs.offset)
        }.map(\.element)
    }
}

/// What validating one playlist found.
public struct PlaylistValidation: Sendable {
    public var path: String
    public var kind: PlaylistKind
    /// In line order.
    public var diagnostics: [Diagnostic]
    /// The keys, for the package rules.
    public var keys: KeyFacts
    /// I-frames only, EXT-X-START and EXT-X-INDEPENDENT-SEGMENTS, for the package rules.
    public var presentation = PresentationFacts()
    /// The secrets to hide in whatever is shown of this playlist beyond the messages (which are already
    /// redacted): the lines quoted under findings.
    public var redaction = Redaction.none
    /// With `--segments`, what a media playlist's segments measure.
    public var measured: MeasuredPlaylist?
    /// A master's variants and renditions, for the package rules that hold them to their media.
    public var variants = VariantFacts()
    /// A media playlist's key periods, for reports.
    public var keyPeriods: [Report.KeyPeriod] = []
    /// Its FairPlay URIs with the key each stands for, for the title's key map (``KeyMapRule``,
    /// ``TitleKeyMap``).
    public var keyUses: [KeyUse] = []

    public init(path: String, kind: PlaylistKind, diagnostics: [Diagnostic], keys: KeyFacts = KeyFacts()) {
        self.path = path
        self.kind = kind
        self.diagnostics = diagnostics
        self.keys = keys
    }

    /// The number of findings of `severity`.
    public func count(_ severity: Severity) -> Int { diagnostics.count { $0.severity == severity } }
}

extension PlaylistValidation {
    /// A playlist that could not be read: a failed entry with the operating system's reason, as `apply`
    /// reports one (`PKG-unreadable`).
    public static func unreadable(_ error: IOError) -> PlaylistValidation {
        let location = SourceLocation(path: error.path, line: 1, column: 1, offset: 0)
        return PlaylistValidation(
            path: error.path, kind: .unknown, diagnostics: [PackageDiagnostics.unreadable(error.description, at: location)])
    }
}
