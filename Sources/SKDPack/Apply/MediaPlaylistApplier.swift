import CPIX
import Glibc
import HLS
import MP4
import SKDTemplate

/// Applies a template to one media playlist (README "What apply does", rules 1 to 5).
///
/// One streaming pass reads the playlist and writes the result, so memory never depends on the number of
/// segments: untouched bytes go straight through; the lines of a key period, from its first key to its
/// first segment (a handful), are held until the period is complete, so that a FairPlay key can be
/// inserted after its last key and `kid` is known wherever the KEYID stands. Two decisions need the whole
/// playlist: whether EXT-X-VERSION must rise (patched in place when the digit is there to patch) and
/// whether a playlist is clear media. When a pass cannot act on them, its result says so, and a second
/// pass with that ``Plan`` does.
public struct MediaPlaylistApplier: Sendable {
    public let options: ApplyOptions
    /// The template's secret variables, whose values each playlist notes for redaction.
    private let secretNames: [String]

    /// Whether the template's `content_id` may come from a match or path pattern: it uses one, and no
    /// value is given for the whole run. Worked out once, not for every key.
    let contentIDMayComeFromPattern: Bool

    /// The renderer of a `--match` migration whose template takes every value from the match, when it
    /// can render this template and no key truth gives values.
    let matchedRenderer: MatchedURIRenderer?

    /// What the master says the playlist carries, for choosing its CPIX keys (``PlaylistPackage/tracks``).
    public let tracks: [TrackContext]

    /// The secret forms of old key URIs, the run's (``ApplyOptions/Derived``).
    let oldSecrets: OldURISecrets

    public init(options: ApplyOptions, tracks: [TrackContext] = []) {
        self.options = options
        self.tracks = tracks
        self.secretNames = options.template.definition.secretNames.sorted()
        self.writesDocumentKey = options.template.definition.uri.variableNames.contains("cpix_uri")
        self.contentIDMayComeFromPattern =
            options.template.definition.uri.variableNames.contains("content_id")
            && !options.variables.commandLine.contains { $0.name == "content_id" }
        self.oldSecrets = options.derived.oldSecrets(options)
        self.matchedRenderer =
            options.keyTruth.isEmpty
            ? MatchedURIRenderer(
                template: options.template.definition, match: options.variables.match, given: options.variables.commandLine.map(\.name))
            : nil
    }

    /// What a pass is told in advance.
    public struct Plan: Sendable, Equatable {
        /// Write `#EXT-X-VERSION:5` after `#EXTM3U`.
        public var insertVersion = false
        /// Write the EXT-X-VERSION line as `#EXT-X-VERSION:5`.
        public var raiseVersion = false
        /// Clear media: insert a FairPlay key before this line.
        public var clearInsertionLine: Int?

        public init() {}
    }

    /// What a pass found, did, and could not do.
    public struct PassResult: Sendable {
        public var outcome: PlaylistOutcome
        /// A plan for a second pass, when this one could not finish the job.
        public var followUp: Plan?
        /// Where this pass wrote the digit of an EXT-X-VERSION that must become `5`: patching that one byte
        /// finishes the job.
        public var versionDigitOffset: Int?
    }

    /// Reads `source` once and writes the result into `emitter` (whatever it is: a file, a diff, nothing).
    /// The output is only good if the outcome has no error and the result asks for no follow-up.
    func pass<Emitter: PlaylistEmitter & ~Copyable>(
        _ source: any ByteSource, identity: PlaylistIdentity, plan: Plan = Plan(), into emitter: inout Emitter
    ) throws(IOError) -> PassResult {
        var walk = MediaWalk(applier: self, identity: identity, plan: plan)
        let reader = PlaylistReader(source: source, path: identity.path, options: options.readerOptions)
        reader.onDiagnostic = { [walk] diagnostic in walk.collect(diagnostic) }
        try walk.run(reader, into: &emitter)
        return walk.result(reader)
    }

    // MARK: Keys

    /// The URI for a key (`key` is the existing FairPlay key, `nil` for an inserted one), or `nil` after
    /// reporting why it cannot be rendered. The values of secret variables go into `secrets`, whatever
    /// their source (a catalogue row, a --match group), so that nothing shown of the playlist holds them.
    /// `truth` holds the values key truth gives this key (``KeyTruth/variableNames``), from `truthSource`;
    /// a value given for the run still wins over them.
    func render(
        _ key: KeyLine?, index: Int, kid: String?, line: Int, values playlistValues: [String: TemplateValue],
        truth: [String: String] = [:], truthSource: String = "", noting outcome: inout PlaylistOutcome,
        report: (DiagnosticKind, String, Int) -> Void
    ) -> String? {
        let oldURI = key?.resolvedURI
        if let oldURI { outcome.secretValues.formUnion(oldSecrets.secrets(in: oldURI)) }
        var groups: [String: String] = [:]
        if let oldURI, let match = options.variables.match {
            guard let found = match.groups(in: oldURI) else {
                // Already what the template makes with the run's values (a second run of a migration):
                // kept as it is, not a failure.
                if options.makes(oldURI) { return oldURI }
                report(
                    ApplyDiagnostics.matchFailed,
                    "the key URI \(oldURI) does not match \(options.variables.names.match) \(match.text); the playlist is left as it was",
                    line)
                return nil
            }
            groups = found
        }
        let sources = options.variables.keyLookup(
            playlist: playlistValues, keyIndex: index, kid: kid, oldURI: oldURI, matchGroups: groups, line: line)
        let given = options.variables.commandLine
        let lookup: (String) -> TemplateValue? =
            truth.isEmpty
            ? sources
            : { name in
                if let value = truth[name], !given.contains(where: { $0.name == name }) { return TemplateValue(value, source: truthSource) }
                return sources(name)
            }
        for name in secretNames {
            if let value = lookup(name)?.value ?? options.template.definition.variables[name]?.defaultValue {
                outcome.secretValues.insert(value)
            }
        }
        if let contentID = contentIDFromPattern(groups: groups, playlistValues: playlistValues) {
            outcome.contentIDsFromPatterns.insert(contentID)
        }
        do {
            let uri = try options.template.definition.renderer.render(lookup)
            let allowed = options.template.definition.allowHosts
            if !allowed.isEmpty, case .url(_, let host) = LicenseURL.derive(fromKeyURI: uri), !LicenseURL.isAllowed(host: host, by: allowed)
            {
                report(
                    LicenseHostRule.kind,
                    "the key URI would point at \(host), which the template's allow_hosts (\(allowed.joined(separator: ", "))) "
                        + "does not allow; the playlist is left as it was", line)
                return nil
            }
            return uri
        } catch {
            var message = error.message
            if error.problem == .missingValue, let name = error.variable {
                message += " (\(options.variables.names.whereValuesComeFrom(for: name)))"
            }
            report(ApplyDiagnostics.renderFailed, message + "; the playlist is left as it was", line)
            return nil
        }
    }

    /// The content id a key gets from the match or the path pattern (not one given for the run, nor a
    /// catalogue's): the run warns when many titles get the same one, the sign of a pattern that captures
    /// too much.
    private func contentIDFromPattern(groups: [String: String], playlistValues: [String: TemplateValue]) -> String? {
        let name = "content_id"
        guard contentIDMayComeFromPattern else { return nil }
        if let value = groups[name] { return value }
        guard options.variables.pathPattern?.groupNames.contains(name) == true else { return nil }
        return playlistValues[name]?.value
    }

    /// The METHOD, KEYFORMATVERSIONS and IV a FairPlay key gets besides its URI: those the key server's
    /// signaling gives (`signaled`, when the template writes the document's key), else those the template
    /// sets; `nil` where neither says (the key keeps its own).
    private func shape(_ signaled: KeyAttributes?) -> (method: String?, keyFormatVersions: String?, iv: String?) {
        guard let signaled else { return (options.template.method, options.template.keyFormatVersions, options.template.iv) }
        return (signaled.method, signaled.keyFormatVersions ?? FairPlay.keyFormatVersions, signaled.iv)
    }

    /// The key line with its URI (and the METHOD, KEYFORMATVERSIONS and IV of ``shape(_:)``) changed, every
    /// other byte as it was; throws when a value does not fit its attribute.
    func rewrittenContent(_ key: KeyLine, uri: String, signaled: KeyAttributes? = nil) throws(UnwritableAttributeValue) -> [UInt8] {
        let attributes = key.attributes
        let shape = shape(signaled)
        // The common case, only the URI to change (or none): one checked replacement, without an editor.
        if let onlyURI = uriOnlyShape(signaled: signaled), attributes.withView(onlyURI.isMet), let current = attributes["URI"],
            current.isQuoted
        {
            if current.hasText(uri) { return attributes.line }
            return try TagLineEditor.replacingValue(of: current, withQuotedString: uri)
        }
        var editor = TagLineEditor(line: attributes.line, attributes: attributes)
        let tag = key.tag
        if tag.uri != uri { try editor.set("URI", .quotedString(uri)) }
        if let method = shape.method, method != tag.method { try editor.set("METHOD", .enumeratedString(method)) }
        if let versions = shape.keyFormatVersions, versions != tag.keyFormatVersions {
            try editor.set("KEYFORMATVERSIONS", .quotedString(versions))
        }
        if signaled != nil, let iv = shape.iv, iv.lowercased() != tag.iv.map({ "0x" + $0.lowercased() }) {
            try editor.set("IV", .hexadecimalSequence(iv))
        }
        return editor.hasChanges ? editor.render() : attributes.line
    }

    /// What a key must have already for rewriting it to change only its URI (``URIOnlyShape``), or `nil`
    /// when more changes whatever it has (the key server's key line sets an IV). Read in place: the typed
    /// key costs more than the replacement.
    func uriOnlyShape(signaled: KeyAttributes?) -> URIOnlyShape? {
        let shape = shape(signaled)
        guard signaled == nil || shape.iv == nil else { return nil }
        return URIOnlyShape(method: shape.method, keyFormatVersions: shape.keyFormatVersions)
    }

    /// The METHOD and KEYFORMATVERSIONS the template or the key server's key line sets (`nil`: none): a key
    /// that has them already changes only its URI when rewritten.
    struct URIOnlyShape {
        let method: String?
        let keyFormatVersions: String?

        func isMet(_ attributes: AttributeListView) -> Bool {
            (method.map { attributes.attribute("METHOD", is: $0) } ?? true)
                && (keyFormatVersions.map { attributes.attribute("KEYFORMATVERSIONS", is: $0, quoted: true) } ?? true)
        }
    }

    /// The attributes of an existing FairPlay key once rewritten, for its master's session key.
    func sessionKey(_ key: KeyLine, uri: String, signaled: KeyAttributes? = nil) -> KeyAttributes {
        let tag = key.tag
        let shape = shape(signaled)
        return KeyAttributes(
            method: shape.method ?? tag.method, uri: uri, keyFormat: tag.keyFormat,
            keyFormatVersions: shape.keyFormatVersions ?? tag.keyFormatVersions,
            iv: signaled?.iv ?? key.attributes["IV"]?.text)
    }

    /// The attributes of a FairPlay key skdpack adds: the signaling's or the template's, or FairPlay's
    /// defaults.
    func insertedKey(uri: String, signaled: KeyAttributes? = nil) -> KeyAttributes {
        let shape = shape(signaled)
        return KeyAttributes(
            method: shape.method ?? FairPlay.method, uri: uri, keyFormat: options.template.keyFormat,
            keyFormatVersions: shape.keyFormatVersions ?? FairPlay.keyFormatVersions, iv: shape.iv)
    }

    /// Whether the template writes the key server's own key (its URI is the document's `{cpix_uri}`):
    /// then the key's other attributes are the document's too. Worked out once: asked at every key period.
    let writesDocumentKey: Bool
}

/// Diagnostics collected from the reader's callback while the walk owns the rest of its state.
private final class DiagnosticBox {
    var diagnostics: [Diagnostic] = []
}

/// The state of one pass over a media playlist.
private struct MediaWalk {
    let applier: MediaPlaylistApplier
    let identity: PlaylistIdentity
    let plan: MediaPlaylistApplier.Plan
    let playlistValues: [String: TemplateValue]
    let box = DiagnosticBox()
    var outcome: PlaylistOutcome
    var periods = KeyPeriods()
    var held = HeldPeriod()
    var keys: [KeyAttributes] = []
    var seenKeys: Set<KeyAttributes> = []
    var writesFairPlay = false
    var firstSegmentTag: (line: Int, offset: Int)?
    var version: (line: Int, text: String, digitOffset: Int?)?
    var lastTerminator = LineTerminator.lf
    /// Whether the template uses `kid`: finding a period's KEYID is skipped otherwise.
    let wantsKeyID: Bool
    let collectsSessionKeys: Bool
    /// Made once: the secrets to keep out of messages and changes.
    let redaction: Redaction
    /// The CPIX key of each key period, when a document is given; or why the title has none.
    var chooser: TrackKeyChooser?
    var truthProblem: KeyTruthProblem?
    /// The `EXT-X-MAP` in force, for `--kid-from media`.
    var currentMap: MapTag?
    /// The key-truth problems already reported: one that is not about a period is said once, not per key.
    var reportedTruthProblems: Set<String> = []
    /// The last FairPlay key URI written, what told its period's key (the old URI, or another system's
    /// KEYID), and its line: a rotation the template folds into one URI shows as the same URI for a
    /// different key in the next period. The buffers are reused from key to key.
    var lastURIWritten: [UInt8] = []
    /// Whether a key line that does not start `METHOD=SAMPLE-AES` or `METHOD=NONE` has been read: only then
    /// can a FairPlay key stand beside another METHOD (``flushPeriod``).
    var sawOtherMethod = false
    var lastKeyBehind: [UInt8] = []
    var lastKeyLine: Int?
    /// The key id the last key rendered got from key truth, for the change that writes it.
    var lastKeyID: (kid: KeyID, source: ApplyChange.KeyIDSource, file: String)?
    /// The document's FairPlay key line for the last key rendered, when the template writes it whole.
    var lastSignaled: KeyAttributes?
    /// Whether a key's URI depends on nothing of its key period but its old URI: the template uses neither
    /// `key_index` nor `kid`, and no key truth gives values per period. Then a period that repeats the old
    /// URI of the one before (key rotation often changes only the KEYID) gets the URI rendered for it.
    let rendersByOldURI: Bool
    /// Whether a key's URI depends on nothing of its key period but the key truth gives it: the template
    /// uses neither `key_index` nor `old_uri`, and no `--match` gives values. Then a period whose truth is
    /// the key of the one before (a CPIX document without periods gives every period the same key) gets
    /// the URI rendered for it.
    let rendersByTruthKey: Bool
    /// What the last URI rendered was rendered from, what it rendered to, and the key server's FairPlay key
    /// line that went with it.
    var lastRender: (from: RenderedFrom, uri: String, signaled: KeyAttributes?, keyID: KeyIDOfChange?)?
    /// The key id a change names, and where it came from.
    typealias KeyIDOfChange = (kid: KeyID, source: ApplyChange.KeyIDSource, file: String)

    /// What a URI that ``rendersByOldURI`` or ``rendersByTruthKey`` was rendered from.
    enum RenderedFrom: Equatable {
        case oldURI(String)
        case truthKey(KeyID)
    }
    /// What a key the `--match` byte renderer rewrites must have already (``URIAsRead``).
    let matchedShape: MediaPlaylistApplier.URIOnlyShape?
    /// The applier's secret forms of old URIs, held here so that a key's look at them retains nothing.
    let oldSecrets: OldURISecrets
    /// The URI every key period gets from key truth, when the template depends on nothing else and the
    /// document gives every period one key, once rendered; with what a key must have already.
    var truthURIAsRead: (uri: String, shape: MediaPlaylistApplier.URIOnlyShape)?
    /// The `--match` renderer's working memory, and the line it rewrites, kept from one key to the next.
    var renderScratch = MatchedURIRenderer.Scratch()
    var rewrittenLine: [UInt8] = []

    init(applier: MediaPlaylistApplier, identity: PlaylistIdentity, plan: MediaPlaylistApplier.Plan) {
        self.applier = applier
        self.identity = identity
        self.plan = plan
        self.playlistValues = applier.options.variables.playlistValues(for: identity)
        self.outcome = PlaylistOutcome(path: identity.path, kind: .unknown)
        self.wantsKeyID = applier.options.template.definition.uri.variableNames.contains("kid")
        let variableNames = applier.options.template.definition.uri.variableNames
        self.rendersByOldURI = !variableNames.contains("kid") && !variableNames.contains("key_index") && applier.options.keyTruth.isEmpty
        self.matchedShape = applier.uriOnlyShape(signaled: nil)
        self.oldSecrets = applier.oldSecrets
        self.rendersByTruthKey =
            !applier.options.keyTruth.isEmpty && !variableNames.contains("key_index") && !variableNames.contains("old_uri")
            && applier.options.variables.match == nil
        self.collectsSessionKeys = applier.options.collectsSessionKeys
        self.redaction = applier.options.redaction
        let truth = applier.options.keyTruth
        if !truth.documents.isEmpty {
            let contentID =
                applier.options.variables.commandLine.last(where: { $0.name == "content_id" })?.value ?? playlistValues["content_id"]?.value
            switch truth.document(for: contentID) {
            case .success(let document): chooser = TrackKeyChooser(document: document, tracks: applier.tracks)
            case .failure(let problem): truthProblem = problem
            }
        }
    }

    func collect(_ diagnostic: Diagnostic) {
        guard !applier.options.ignoredFindings.contains(diagnostic.id) else { return }
        box.diagnostics.append(diagnostic)
    }

    func report(_ kind: DiagnosticKind, _ message: String, line: Int) {
        let location = SourceLocation(path: identity.path, line: line, column: 1, offset: 0)
        box.diagnostics.append(kind(redaction.redact(message), at: location))
    }

    mutating func run<Emitter: PlaylistEmitter & ~Copyable>(_ reader: PlaylistReader, into emitter: inout Emitter) throws(IOError) {
        var pastHeader = false
        while true {
            // Line by line until the first segment (the header holds what the clear-media and version
            // decisions need), then by runs. (Once past it, the reader is not asked again.)
            if !pastHeader { pastHeader = reader.segmentCount > 0 }
            let item = pastHeader ? try reader.nextItem() : try reader.next().map(PlaylistItem.line)
            guard let item else { break }
            let periodEnded = periods.inGroup && reader.segmentCount > periods.segmentsAtStart
            switch item {
            case .run(let run):
                if periodEnded { try flushPeriod(reader, into: &emitter) }
                if periods.inGroup {
                    held.hold(run.bytes, firstLine: run.firstLine, lineCount: run.lineCount)
                } else {
                    try emitter.keep(run.bytes, firstLine: run.firstLine, lineCount: run.lineCount)
                }
            case .line(let line):
                if periodEnded { try flushPeriod(reader, into: &emitter) }
                try read(line, reader, into: &emitter)
            }
        }
        if periods.inGroup { try flushPeriod(reader, into: &emitter) }
    }

    private mutating func read<Emitter: PlaylistEmitter & ~Copyable>(
        _ line: PlaylistLine, _ reader: PlaylistReader, into emitter: inout Emitter
    ) throws(IOError) {
        let number = line.raw.number
        if line.raw.terminator != .none { lastTerminator = line.raw.terminator }
        if plan.clearInsertionLine == number, line.raw.part != .overlongMiddle, line.raw.part != .overlongTail {
            if let uri = renderKey(nil, index: 0, kid: nil, line: number),
                let content = written(applier.insertedKey(uri: uri, signaled: lastSignaled), line: number)
            {
                try emitter.insert(content, terminator: lastTerminator, afterUnterminated: false)
            }
        }
        switch line.kind {
        case .tag(.key):
            let content = line.content
            if !sawOtherMethod { sawOtherMethod = !Self.startsWithUsualMethod(content) }
            // Whether it is a FairPlay key is told by the format the reader recorded for it (or, for a key
            // that went into no force, read in place): another system's key (most keys of a multi-DRM
            // playlist) is held as its bytes, without a copy of its attributes or a key made of them.
            if KeyLine.isKeyLine(line.content),
                let isFairPlay = reader.currentKeyFormat(is: FairPlay.keyFormat)
                    ?? reader.withCurrentAttributes(KeyLine.isFairPlay)
            {
                // A KEYFORMAT written with {$variable} may be FairPlay's: neither rewritten nor given a second
                // FairPlay key beside it (validate, which substitutes, would reject either).
                if !isFairPlay, let base = content.baseAddress, memchr(base, Int32(UInt8(ascii: "{")), content.count) != nil,
                    reader.withCurrentAttributes({ $0["KEYFORMAT"]?.mayReferenceVariable ?? false }) == true
                {
                    report(
                        ApplyDiagnostics.keyFormatVariable,
                        "this key's KEYFORMAT uses a {$variable}, so it may be FairPlay's: write the KEYFORMAT out; "
                            + "the playlist is left as it was", line: number)
                }
                if !isFairPlay, !wantsKeyID {
                    periods.note(line: number, segments: reader.segmentCount)
                    held.holdKey(line.raw.bytes, terminator: line.raw.terminator, line: number)
                    return
                }
                if isFairPlay, holdRewrittenAsRead(line, reader) {
                    periods.note(line: number, segments: reader.segmentCount)
                    return
                }
            }
            guard let attributes = reader.currentAttributes,
                let key = KeyLine(attributes: attributes, variables: reader.variables)
            else {
                try keep(line, into: &emitter)
                return
            }
            periods.note(key, line: number, segments: reader.segmentCount, wantsKeyID: wantsKeyID)
            if key.isFairPlay, !key.methodIsFairPlayCompatible {
                report(
                    ApplyDiagnostics.unusableMethod,
                    "this FairPlay key has METHOD=\(key.attributes["METHOD"]?.text ?? "(none)"): FairPlay decrypts SAMPLE-AES only; the key is left as it is",
                    line: number)
            }
            if key.isFairPlay, key.methodIsFairPlayCompatible {
                held.holdFairPlayKey(key, terminator: line.raw.terminator, line: number)
            } else {
                held.holdKey(line.raw.bytes, terminator: line.raw.terminator, line: number)
            }
            return
        case .tag(.version) where !periods.inGroup:
            let text = line.text
            if plan.raiseVersion {
                try emitter.replace(Array(line.content), with: KeyFormatVersion.line, terminator: line.raw.terminator)
                version = (number, text, nil)
            } else {
                // A one-digit version below 5 can be patched to 5 once the pass knows it must be.
                let digit = text.utf8.count == "#EXT-X-VERSION:".utf8.count + 1 ? emitter.written + text.utf8.count - 1 : nil
                version = (number, text, digit)
                try keep(line, into: &emitter)
            }
        case .tag(.map) where applier.options.keyTruth.kidFromMedia:
            if let tag = line.parseTag(), var map = MapTag(tag) {
                map.uri = reader.variables.substitute(map.uri).text
                currentMap = map
            }
            try keep(line, into: &emitter)
        case .tag(let name?) where name.scope == .mediaSegment && name != .map && reader.segmentCount == 0:
            if firstSegmentTag == nil { firstSegmentTag = (number, line.raw.offset) }
            try keep(line, into: &emitter)
        case .uri where reader.segmentCount == 1 && firstSegmentTag == nil:
            firstSegmentTag = (number, line.raw.offset)
            try keep(line, into: &emitter)
        default:
            try keep(line, into: &emitter)
        }
        if number == 1, plan.insertVersion, line.raw.part.endsLine {
            try emitter.insert(KeyFormatVersion.line, terminator: lastTerminator, afterUnterminated: line.raw.terminator == .none)
        }
    }

    private mutating func keep<Emitter: PlaylistEmitter & ~Copyable>(_ line: PlaylistLine, into emitter: inout Emitter) throws(IOError) {
        let lineCount = line.raw.part.endsLine ? 1 : 0
        if periods.inGroup {
            held.hold(line.raw.bytes, firstLine: line.raw.number, lineCount: lineCount)
        } else {
            try emitter.keep(line.raw.bytes, firstLine: line.raw.number, lineCount: lineCount)
        }
    }

    /// The key period is complete: write its lines, FairPlay keys rewritten, and a FairPlay key after its
    /// last key if it has other systems' keys and none for FairPlay.
    private mutating func flushPeriod<Emitter: PlaylistEmitter & ~Copyable>(
        _ reader: PlaylistReader, into emitter: inout Emitter
    ) throws(IOError) {
        let index = periods.index
        let kid = periods.kid
        var insertion: [UInt8]?
        // A FairPlay key beside another system's key of another METHOD (RFC 8216 4.3.2.4): validate rejects
        // the period whatever its URI, so it is not rewritten either.
        // Looked for only once a key of another METHOD has been read: never, in most playlists.
        if sawOtherMethod, reader.hasKeyInForce(format: FairPlay.keyFormat),
            let other = reader.firstKeyInForce(where: { !$0.attribute("METHOD", is: FairPlay.method) }),
            case let key = KeyTag(attributes: other.attributes, isSessionKey: false), key.keyFormat != FairPlay.keyFormat
        {
            report(
                KeyMethodMismatchRule.kind,
                "key period \(index): the FairPlay key is SAMPLE-AES but the \(key.keyFormat) key of line \(other.line) has "
                    + "METHOD=\(key.method); give them the same METHOD; the playlist is left as it was",
                line: periods.lastKeyLine)
        }
        if reader.hasKeysInForce, !reader.hasKeyInForce(format: FairPlay.keyFormat) {
            let usable = { (attributes: AttributeList) in attributes.attribute("METHOD", is: FairPlay.method) }
            if let unusable = reader.firstKeyInForce(where: { !usable($0) }) {
                let key = KeyTag(attributes: unusable.attributes, isSessionKey: false)
                report(
                    ApplyDiagnostics.unusableMethod,
                    "key period \(index) is encrypted with METHOD=\(key.method) (KEYFORMAT \(key.keyFormat), "
                        + "line \(unusable.line)): FairPlay decrypts SAMPLE-AES only, so no FairPlay key can be added",
                    line: periods.lastKeyLine)
            } else if let uri = renderKey(nil, index: index, kid: kid, line: periods.lastKeyLine),
                let content = written(applier.insertedKey(uri: uri, signaled: lastSignaled), line: periods.lastKeyLine)
            {
                insertion = content
                use(collectsSessionKeys ? applier.insertedKey(uri: uri, signaled: lastSignaled) : nil)
                record(line: periods.lastKeyLine, tag: "EXT-X-KEY", .inserted, before: nil, after: content)
            }
        }
        // By position: the lines are numbers, and a copy of the list would be alive when it is emptied.
        for position in held.lines.indices {
            switch held.lines[position] {
            case .bytes(let range, let firstLine, let lineCount):
                try emitter.keep(range, of: held.bytes, firstLine: firstLine, lineCount: lineCount)
            case .key(let range, let terminator, let line):
                try emitter.keep(range, of: held.bytes, firstLine: line, lineCount: 1)
                if line == periods.lastKeyLine, let insertion {
                    try emitter.insert(insertion, terminator: lastTerminator, afterUnterminated: terminator == .none)
                }
            case .fairPlayKey(let slot, let terminator, let line):
                let key = held.fairPlayKeys[slot]
                let content = key.attributes.line
                var written = content
                if let uri = renderKey(key, index: index, kid: kid, line: line), let rewritten = rewritten(key, uri: uri, line: line) {
                    written = rewritten
                    use(collectsSessionKeys ? applier.sessionKey(key, uri: uri, signaled: lastSignaled) : nil)
                    if written != content {
                        record(line: line, tag: "EXT-X-KEY", .rewritten, before: content, after: written)
                    }
                    if key.uriMayReferenceVariable {
                        report(
                            ApplyDiagnostics.literalAfterDefine,
                            "the key URI used {$…} references; it is now written as the literal \(uri)", line: line)
                    }
                }
                if written == content {
                    try emitter.keep(content, terminator: terminator, line: line)
                } else {
                    try emitter.replace(content, with: written, terminator: terminator)
                }
                if line == periods.lastKeyLine, let insertion {
                    try emitter.insert(insertion, terminator: lastTerminator, afterUnterminated: terminator == .none)
                }
            case .rewrittenKey(let read, let rewritten, let terminator, let line, let sessionKey, let namesTruthKey):
                lastKeyID = namesTruthKey ? lastRender?.keyID : nil
                use(sessionKey.map { held.sessionKeys[$0] })
                if let rewritten {
                    let content = HeldPeriod.content(read, terminator: terminator)
                    // The change's lines as text only where a report or a diff keeps them.
                    let keeping = applier.options.keepsChangeDetails
                    record(
                        line: line, tag: "EXT-X-KEY", .rewritten, before: keeping ? Array(held.bytes[content]) : nil,
                        after: keeping ? Array(held.bytes[rewritten]) : nil)
                    try emitter.replace(content, with: rewritten, of: held.bytes, terminator: terminator)
                } else {
                    try emitter.keep(read, of: held.bytes, firstLine: line, lineCount: 1)
                }
            }
        }
        held.removeAll()
        periods.end()
    }

    /// Where the new URI of a FairPlay key comes from when it is known as the key is read, and what the
    /// key must have already for the URI to be all that changes.
    private enum URIAsRead {
        /// Rendered from the key's old URI by the `--match` byte renderer.
        case matched(MatchedURIRenderer, MediaPlaylistApplier.URIOnlyShape)
        /// The URI rendered for the key truth's key, which is every period's (a CPIX document without
        /// periods): ``truthURIAsRead``.
        case truthKey(uri: String, MediaPlaylistApplier.URIOnlyShape)

        var shape: MediaPlaylistApplier.URIOnlyShape {
            switch self {
            case .matched(_, let shape), .truthKey(_, let shape): shape
            }
        }
    }

    private var uriAsRead: URIAsRead? {
        if let renderer = applier.matchedRenderer, let shape = matchedShape { return .matched(renderer, shape) }
        if let truthURIAsRead { return .truthKey(uri: truthURIAsRead.uri, truthURIAsRead.shape) }
        return nil
    }

    /// A FairPlay key rewritten as it is read, when its new URI is known then (``URIAsRead``), and held
    /// with its new content; `false` for a key the general path must rewrite at the end of its period,
    /// which reports what it must. Nothing of the key is copied out of the reader but its bytes.
    private mutating func holdRewrittenAsRead(_ line: PlaylistLine, _ reader: PlaylistReader) -> Bool {
        guard let source = uriAsRead else { return false }
        // The URI's place, when the key may be rewritten here: METHOD=SAMPLE-AES, a quoted URI, and nothing
        // else to change.
        var found: AttributeSpan?
        _ = reader.withCurrentAttributes { attributes in
            guard attributes.attribute("METHOD", is: FairPlay.method, quoted: false), source.shape.isMet(attributes),
                let uri = attributes["URI"], uri.span.isQuoted
            else { return false }
            found = uri.span
            return true
        }
        guard let uri = found else { return false }
        let content = line.content
        let view = AttributeView(line: content, span: uri)
        guard !view.mayReferenceVariable else { return false }
        let secrets = oldSecrets.secrets(in: view.textBytes)
        if !secrets.isEmpty { outcome.secretValues.formUnion(secrets) }
        var changed: Bool?
        var contentID: String?
        var newURI: String?
        switch source {
        case .matched(let renderer, _):
            let notesContentID = applier.contentIDMayComeFromPattern
            view.textBytes.withMemoryRebound(to: UInt8.self) { oldURI in
                guard let rendered = renderer.render(oldURI, scratch: &renderScratch) else { return }
                rendered.uri.withUnsafeBytes { noteKey(uri: $0, behind: UnsafeRawBufferPointer(oldURI), line: line.raw.number) }
                changed = rendered.uri.withUnsafeBufferPointer { splice($0, at: view, in: content) }
                contentID = (notesContentID ? renderer.contentIDCapture : nil).flatMap { rendered.captures[$0] }.map {
                    String(decoding: oldURI[$0], as: UTF8.self)
                }
                if collectsSessionKeys { newURI = String(decoding: rendered.uri, as: UTF8.self) }
            }
        case .truthKey(var uri, _):
            changed = uri.withUTF8 { splice($0, at: view, in: content) }
            newURI = uri
        }
        guard let changed else { return false }
        var namesTruthKey = false
        var signaled: KeyAttributes?
        if case .truthKey = source {
            namesTruthKey = true
            signaled = lastRender?.signaled
        }
        // The master's session key is made of the key as a whole: looked at when there is a master.
        var sessionKey: KeyAttributes?
        if collectsSessionKeys {
            guard let attributes = reader.currentAttributes, let key = KeyLine(attributes: attributes, variables: reader.variables) else {
                return false
            }
            sessionKey = applier.sessionKey(key, uri: newURI ?? "", signaled: signaled)
        }
        if let contentID { outcome.contentIDsFromPatterns.insert(contentID) }
        held.holdRewrittenKey(
            line.raw.bytes, rewritten: changed ? rewrittenLine : nil, terminator: line.raw.terminator, line: line.raw.number,
            sessionKey: sessionKey, namesTruthKey: namesTruthKey)
        return true
    }

    /// Whether the URI `uri` differs from the one of `view` (in the line `content`); when it does, the line
    /// with it is written into ``rewrittenLine`` by the checked writer. `nil` if the writer refused it: the
    /// general path then renders the key again and reports why (a renderer writes URI characters only).
    private mutating func splice(_ uri: UnsafeBufferPointer<UInt8>, at view: AttributeView, in content: UnsafeRawBufferPointer) -> Bool? {
        let old = view.textBytes
        if old.count == uri.count, old.elementsEqual(uri) { return false }
        rewrittenLine.removeAll(keepingCapacity: true)
        do {
            try TagLineEditor.appendReplacingValue(
                at: view.span.valueRange, named: "URI", in: content, withQuotedString: uri, to: &rewrittenLine)
        } catch {
            return nil
        }
        return true
    }

    /// The URI of the FairPlay key of key period `index`, with what key truth gives it (the CPIX key of
    /// the track and period, or the init segment's KID), or `nil` after reporting why it has none.
    private mutating func renderKey(_ key: KeyLine?, index: Int, kid: String?, line: Int) -> String? {
        lastKeyID = nil
        lastSignaled = nil
        if let truthProblem {
            reportOnce(truthProblem, line: line)
            return nil
        }
        // The key key truth gives this period: the CPIX key of the track and period, or the init segment's KID.
        var chosen: ContentKey?
        if chooser != nil {
            switch chooser!.key(forKeyPeriod: index) {
            case .success(let key):
                chosen = key
                lastKeyID = (key.kid, .cpix, chooser!.document.path)
            case .failure(let problem):
                reportOnce(problem, line: line)
                return nil
            }
        } else if applier.options.keyTruth.kidFromMedia {
            switch mediaKeyID() {
            case .success(let (keyID, file)):
                lastKeyID = (keyID, .media, file)
            case .failure(let problem):
                reportOnce(problem, line: line)
                return nil
            }
        }
        // The same old URI, or the same key from key truth, renders the same URI: what the render noted
        // (secrets, content ids) is noted already. A URI that did not render is not kept, so each of its keys
        // reports why.
        let from: RenderedFrom? =
            rendersByOldURI ? key?.resolvedURI.map(RenderedFrom.oldURI) : rendersByTruthKey ? lastKeyID.map { .truthKey($0.kid) } : nil
        if let from, let lastRender, lastRender.from == from {
            lastSignaled = lastRender.signaled
            return lastRender.uri
        }
        var truth: [String: String] = [:]
        var source = ""
        if let chosen {
            truth = chooser!.values(of: chosen)
            source = "the CPIX document \(chooser!.document.path)"
            if applier.writesDocumentKey { lastSignaled = chooser!.signaling(of: chosen.kid)?.media }
        } else if let (keyID, _, file) = lastKeyID {
            truth = ["kid": keyID.hex, "kid_uuid": keyID.uuid]
            source = "the init segment \(file)"
        }
        // The reporter holds what a finding needs, not the walk: a closure over `self` would copy the whole
        // walk, retaining each of its fields, at every key period.
        let (box, path, redaction) = (box, identity.path, redaction)
        let uri = applier.render(
            key, index: index, kid: kid, line: line, values: playlistValues, truth: truth, truthSource: source, noting: &outcome
        ) { kind, message, line in
            box.diagnostics.append(kind(redaction.redact(message), at: SourceLocation(path: path, line: line, column: 1, offset: 0)))
        }
        // The key behind the period: key truth's when it gives one (it is the judge), else the old URI or
        // another system's KEYID.
        if let uri, var behind = lastKeyID?.kid.hex ?? key?.resolvedURI ?? kid {
            var uri = uri
            uri.withUTF8 { uri in
                behind.withUTF8 { noteKey(uri: UnsafeRawBufferPointer(uri), behind: UnsafeRawBufferPointer($0), line: line) }
            }
        }
        if let from, let uri {
            lastRender = (from, uri, lastSignaled, lastKeyID)
            if case .truthKey = from, chooser?.choosesOneKey == true, let shape = applier.uriOnlyShape(signaled: lastSignaled) {
                truthURIAsRead = (uri, shape)
            }
        }
        return uri
    }

    /// Notes the URI written for a key period whose key `behind` tells (its old URI, another system's
    /// KEYID): the same URI as the period before for another key is an error, said once. A player keeps the
    /// key of a URI it has, so every period after the first would be played with the first one's key.
    private mutating func noteKey(uri: UnsafeRawBufferPointer, behind: UnsafeRawBufferPointer, line: Int) {
        if let lastLine = lastKeyLine, Self.same(uri, lastURIWritten), !Self.same(behind, lastKeyBehind) {
            report(
                ApplyDiagnostics.rotationFolded,
                "this key period has another key than the one of line \(lastLine), yet the template gives both "
                    + "\(String(decoding: uri, as: UTF8.self)): a player would play both with the first key; put {key_index} or "
                    + "{kid} in the template (or take the URI from a --match group that differs); the playlist is left as it was",
                line: line)
        }
        Self.keep(uri, in: &lastURIWritten)
        Self.keep(behind, in: &lastKeyBehind)
        lastKeyLine = line
    }

    /// Whether a key line starts with METHOD=SAMPLE-AES or METHOD=NONE: a few bytes compared, from static
    /// text (no array to retain at every key).
    private static func startsWithUsualMethod(_ content: UnsafeRawBufferPointer) -> Bool {
        starts(content, with: "#EXT-X-KEY:METHOD=SAMPLE-AES,") || starts(content, with: "#EXT-X-KEY:METHOD=NONE")
    }

    private static func starts(_ content: UnsafeRawBufferPointer, with text: StaticString) -> Bool {
        text.withUTF8Buffer { text in
            content.count >= text.count && memcmp(content.baseAddress!, text.baseAddress!, text.count) == 0
        }
    }

    /// Copies `bytes` into `buffer`, reallocating only when the length changes (the URIs of one playlist
    /// mostly have one length).
    private static func keep(_ bytes: UnsafeRawBufferPointer, in buffer: inout [UInt8]) {
        if buffer.count != bytes.count { buffer = [UInt8](repeating: 0, count: bytes.count) }
        guard let base = bytes.baseAddress else { return }
        buffer.withUnsafeMutableBytes { _ = memcpy($0.baseAddress!, base, bytes.count) }
    }

    private static func same(_ bytes: UnsafeRawBufferPointer, _ other: [UInt8]) -> Bool {
        guard bytes.count == other.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return other.withUnsafeBytes { memcmp(base, $0.baseAddress!, bytes.count) == 0 }
    }

    /// Reports `problem` at `line` unless the same was reported already (a problem of the playlist, not of
    /// its period, would otherwise be said at every key).
    private mutating func reportOnce(_ problem: KeyTruthProblem, line: Int) {
        guard reportedTruthProblems.insert(problem.message).inserted else { return }
        report(ApplyDiagnostics.noKeyTruth, problem.message + "; the playlist is left as it was", line: line)
    }

    /// The default KID of the init segment in force, and its file.
    private func mediaKeyID() -> Result<(KeyID, String), KeyTruthProblem> {
        guard let map = currentMap else {
            return .failure(KeyTruthProblem("no EXT-X-MAP is in force here: a KID from the media needs fMP4 init segments"))
        }
        guard let file = InitSegmentStore.localPath(of: map.uri, inPlaylistAt: identity.path) else {
            return .failure(KeyTruthProblem("the init segment \(map.uri) is not a local file, so its KID cannot be read here"))
        }
        let range = map.byteRange.flatMap(ByteRange.init)
        switch applier.options.keyTruth.initSegments.segment(at: file, range: range) {
        case .failure(let failure):
            return .failure(KeyTruthProblem(failure.description))
        case .success(let segment):
            let kids = segment.tracks.filter(\.isEncrypted).compactMap(\.defaultKID).reduce(into: [KeyID]()) { list, kid in
                if !list.contains(kid) { list.append(kid) }
            }
            guard let kid = kids.first else {
                return .failure(
                    KeyTruthProblem("the init segment \(file) is clear: no sample entry of it is protected, so it names no KID"))
            }
            guard kids.count == 1 else {
                return .failure(
                    KeyTruthProblem("the init segment \(file) has tracks with different KIDs (\(kids.map(\.uuid).joined(separator: ", ")))")
                )
            }
            guard !kid.isZero else {
                return .failure(KeyTruthProblem("the init segment \(file) has an all-zero default KID, which names no key"))
            }
            return .success((kid, file))
        }
    }

    /// The line of a key to insert, or `nil` after reporting why it cannot be written (the playlist then
    /// fails and is left as it was).
    private func written(_ key: KeyAttributes, line: Int) -> [UInt8]? {
        do {
            return try key.line(.key)
        } catch {
            report(ApplyDiagnostics.unwritable, "\(error); no key is written and the playlist is left as it was", line: line)
            return nil
        }
    }

    /// An existing key line rewritten, or `nil` after reporting why it cannot be.
    private func rewritten(_ key: KeyLine, uri: String, line: Int) -> [UInt8]? {
        do {
            return try applier.rewrittenContent(key, uri: uri, signaled: lastSignaled)
        } catch {
            report(ApplyDiagnostics.unwritable, "\(error); the key is not rewritten and the playlist is left as it was", line: line)
            return nil
        }
    }

    /// Notes that a FairPlay key is written, and keeps its value (when `key` is given) for the master.
    private mutating func use(_ key: KeyAttributes?) {
        writesFairPlay = true
        if let key, seenKeys.insert(key).inserted { keys.append(key) }
    }

    /// Counts a change, and keeps it (its lines as text, secrets redacted) when details are kept.
    private mutating func record(line: Int, tag: String, _ action: ApplyChange.Action, before: [UInt8]?, after: [UInt8]?) {
        // The secrets of this playlist's own values and old URIs too, as they are found.
        let redaction = outcome.secretValues.isEmpty ? redaction : redaction.adding(outcome.secretValues)
        let keyID = tag == "EXT-X-KEY" ? lastKeyID : nil
        outcome.record(tag: tag, action: action, keeping: applier.options.keepsChangeDetails) {
            ApplyChange(
                line: line, tag: tag, action: action,
                before: before.map { redaction.redact(String(decoding: $0, as: UTF8.self)) },
                after: after.map { redaction.redact(String(decoding: $0, as: UTF8.self)) }, kid: keyID?.kid.uuid,
                kidSource: keyID?.source, kidFile: keyID?.file)
        }
    }

    /// The end of the pass: clear media and EXT-X-VERSION, which needed the whole playlist.
    mutating func result(_ reader: PlaylistReader) -> MediaPlaylistApplier.PassResult {
        var followUp = plan
        var needsFollowUp = false
        var versionDigitOffset: Int?
        if !periods.sawKeys, reader.segmentCount > 0, let first = firstSegmentTag {
            if applier.options.assumeEncrypted {
                if let uri = renderKey(nil, index: 0, kid: nil, line: first.line),
                    let content = written(applier.insertedKey(uri: uri, signaled: lastSignaled), line: first.line)
                {
                    use(collectsSessionKeys ? applier.insertedKey(uri: uri, signaled: lastSignaled) : nil)
                    record(line: first.line - 1, tag: "EXT-X-KEY", .inserted, before: nil, after: content)
                    if plan.clearInsertionLine == nil {
                        followUp.clearInsertionLine = first.line
                        needsFollowUp = true
                    }
                }
            } else {
                report(
                    ApplyDiagnostics.clearPlaylist,
                    "no segment of this playlist is encrypted; no FairPlay key is added (give \(applier.options.variables.names.assumeEncrypted) if they are)",
                    line: first.line)
            }
        }
        if writesFairPlay {
            if let version {
                let value = UInt64(version.text.dropFirst("#EXT-X-VERSION:".count))
                if let value, value < KeyFormatVersion.number {
                    record(
                        line: version.line, tag: "EXT-X-VERSION", .rewritten, before: Array(version.text.utf8), after: KeyFormatVersion.line
                    )
                    if !plan.raiseVersion {
                        if let digit = version.digitOffset {
                            versionDigitOffset = digit
                            followUp.raiseVersion = true
                        } else {
                            followUp.raiseVersion = true
                            needsFollowUp = true
                        }
                    }
                }
            } else {
                record(line: 1, tag: "EXT-X-VERSION", .inserted, before: nil, after: KeyFormatVersion.line)
                if !plan.insertVersion {
                    followUp.insertVersion = true
                    needsFollowUp = true
                }
            }
        }
        outcome.kind = reader.kind
        outcome.changes = outcome.changes.sorted { ($0.line, $0.action == .inserted ? 1 : 0) < ($1.line, $1.action == .inserted ? 1 : 0) }
        outcome.diagnostics = box.diagnostics.sorted { $0.location.line < $1.location.line }
        // Messages and changes hid the command line's secrets as they were made; the playlist's own (a
        // catalogue row, a --match group) are known now.
        if !outcome.secretValues.isEmpty { outcome.redact(redaction.adding(outcome.secretValues)) }
        outcome.fairPlayKeys = keys
        return MediaPlaylistApplier.PassResult(
            outcome: outcome, followUp: needsFollowUp ? followUp : nil, versionDigitOffset: needsFollowUp ? nil : versionDigitOffset)
    }
}
