import CPIX
import Glibc
import HLS
import MP4
import SKDBytes
import SKDFiles
import SKDKeys
import SKDReportModel
import SKDTemplate
import SKDValidation

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
    /// What the master says the playlist carries, for choosing its CPIX keys (``PlaylistPackage/tracks``).
    public let tracks: [TrackContext]
    /// The run's key URIs (``KeyURIs``) and secret forms of old key URIs (``ApplyOptions/Derived``).
    let uris: KeyURIs
    let oldSecrets: OldURISecrets
    /// The key map of the title's playlists applied before this one: its keys keep their numbers
    /// (`key_index`), and a URI this playlist gives to another key than theirs is refused.
    public let titleKeys: KeyMap
    /// The playlists of ``titleKeys`` that are not part of the run (the renditions beside one given without
    /// its master): they keep their URIs, so a conflict with one of them asks for the title to be applied whole.
    public let besideRun: Set<String>

    public init(options: ApplyOptions, tracks: [TrackContext] = [], titleKeys: KeyMap = KeyMap(), besideRun: Set<String> = []) {
        self.options = options
        self.tracks = tracks
        self.titleKeys = titleKeys
        self.besideRun = besideRun
        self.writesDocumentKey = options.template.definition.uri.variableNames.contains("cpix_uri")
        self.uris = options.derived.keyURIs(options)
        self.oldSecrets = options.derived.oldSecrets(options)
        self.templateShape = URIOnlyShape(method: options.template.method, keyFormatVersions: options.template.keyFormatVersions)
    }

    /// What a key must have for the template (without the key server's key line) to change only its URI:
    /// worked out once, as it is asked at every key.
    private let templateShape: URIOnlyShape

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

    /// The METHOD, KEYFORMATVERSIONS and IV a FairPlay key gets besides its URI: those the key server's
    /// signaling gives (`signaled`, when the template writes the document's key), else those the template
    /// sets; `nil` where neither says (the key keeps its own).
    private func shape(_ signaled: KeyAttributes?) -> (method: String?, keyFormatVersions: String?, iv: String?) {
        guard let signaled else { return (options.template.method, options.template.keyFormatVersions, options.template.iv) }
        return (signaled.method, signaled.keyFormatVersions ?? FairPlay.keyFormatVersions, signaled.iv)
    }

    /// The one writer of a FairPlay key line: `content` with the URI `uri` (and the METHOD,
    /// KEYFORMATVERSIONS and IV of ``shape(_:)``), every other byte as it was, into `output` (emptied);
    /// `false` when that changes nothing. When the URI is all that changes (the key has the shape already
    /// and a quoted URI), it is replaced in place, checked on its bytes; otherwise the editor rewrites the
    /// key `parsed` gives. Throws when a value does not fit its attribute.
    func rewrite(
        _ content: UnsafeRawBufferPointer, spans: FairPlayKeySpans, uri: UnsafeBufferPointer<UInt8>, signaled: KeyAttributes?,
        parsed: () -> KeyLine, into output: inout ByteBuffer
    ) throws(UnwritableAttributeValue) -> Bool {
        output.removeAll()
        if let span = spans.uri, hasShape(content, spans, signaled: signaled) {
            let old = AttributeView(line: content, span: span).textBytes
            if Bytes.equal(old, UnsafeRawBufferPointer(uri)) { return false }
            try TagLineEditor.appendReplacingValue(at: span.valueRange, named: "URI", in: content, withQuotedString: uri, to: &output)
            return true
        }
        let key = parsed()
        let shape = shape(signaled)
        let uri = String(decoding: uri, as: UTF8.self)
        var editor = TagLineEditor(line: key.attributes.line, attributes: key.attributes)
        let tag = key.tag
        if tag.uri != uri { try editor.set("URI", .quotedString(uri)) }
        if let method = shape.method, method != tag.method { try editor.set("METHOD", .enumeratedString(method)) }
        if let versions = shape.keyFormatVersions, versions != tag.keyFormatVersions {
            try editor.set("KEYFORMATVERSIONS", .quotedString(versions))
        }
        if signaled != nil, let iv = shape.iv, iv.lowercased() != tag.iv.map({ "0x" + $0.lowercased() }) {
            try editor.set("IV", .hexadecimalSequence(iv))
        }
        guard editor.hasChanges else { return false }
        output.append(contentsOf: editor.render())
        return true
    }

    /// Whether the key has what ``uriOnlyShape(signaled:)`` asks already. (The template's shape is asked in
    /// place: a copy of it cost its strings' reference counts at every key.)
    private func hasShape(_ content: UnsafeRawBufferPointer, _ spans: FairPlayKeySpans, signaled: KeyAttributes?) -> Bool {
        guard let signaled else { return templateShape.isMet(content, spans) }
        return uriOnlyShape(signaled: signaled)?.isMet(content, spans) == true
    }

    /// What a key must have already for rewriting it to change only its URI (``URIOnlyShape``), or `nil`
    /// when more changes whatever it has (the key server's key line sets an IV).
    func uriOnlyShape(signaled: KeyAttributes?) -> URIOnlyShape? {
        guard let signaled else { return templateShape }
        let shape = shape(signaled)
        guard shape.iv == nil else { return nil }
        return URIOnlyShape(method: shape.method, keyFormatVersions: shape.keyFormatVersions)
    }

    /// The METHOD and KEYFORMATVERSIONS the template or the key server's key line sets (`nil`: none): a key
    /// that has them already changes only its URI when rewritten.
    struct URIOnlyShape {
        let method: String?
        let keyFormatVersions: String?

        /// Whether the key line `content`, its attributes at `spans`, has them: read in place.
        func isMet(_ content: UnsafeRawBufferPointer, _ spans: FairPlayKeySpans) -> Bool {
            func has(_ span: AttributeSpan?, _ text: String?, quoted: Bool?) -> Bool {
                guard let text else { return true }
                guard let span, quoted == nil || span.isQuoted == quoted else { return false }
                let bytes = AttributeView(line: content, span: span).textBytes
                return Bytes.equal(bytes, text)
            }
            return has(spans.method, method, quoted: nil) && has(spans.keyFormatVersions, keyFormatVersions, quoted: true)
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

/// The state of one pass over a media playlist: the key period it holds, the keys it rendered.
private struct MediaWalk {
    let applier: MediaPlaylistApplier
    let identity: PlaylistIdentity
    let plan: MediaPlaylistApplier.Plan
    let box = DiagnosticBox()
    var outcome: PlaylistOutcome
    var periods: KeyPeriods
    var held = HeldPeriod()
    /// The playlist's key URIs: the template with its values folded in, and the last one rendered.
    var uris: KeyURIs.Playlist
    /// The line a FairPlay key is rewritten into, kept from one key to the next.
    var rewrittenLine = ByteBuffer()
    /// The old URI of a key kept as it is (the template makes it already), while it is the URI rendered last.
    var keptURI: ByteBuffer?
    var keys: [KeyAttributes] = []
    var seenKeys: Set<KeyAttributes> = []
    var writesFairPlay = false
    var firstSegmentTag: (line: Int, offset: Int)?
    var version: (line: Int, text: String, digitOffset: Int?)?
    var lastTerminator = LineTerminator.lf
    /// The terminator of the period's latest key, and whether that key waits in ``held``.
    var lastKeyTerminator = LineTerminator.lf
    var lastKeyHeld = false
    /// Whether the template uses `kid` or `key_index`: then a FairPlay key whose period has told no KEYID
    /// yet waits for the period's end (a key after it may tell one).
    let wantsKeyID: Bool
    /// Whether the template uses `key_index`: the number of the period's key (``KeyNumbers``).
    let wantsKeyIndex: Bool
    let collectsSessionKeys: Bool
    /// Made once: the secrets to keep out of messages and changes.
    let redaction: Redaction
    /// What key truth gives each key period (`--cpix`, `--kid-from media`).
    var truth: PeriodKeyTruth?
    /// The key-truth problems already reported: one that is not about a period is said once, not per key.
    var reportedTruthProblems: Set<String> = []
    /// Whether a key line that does not start `METHOD=SAMPLE-AES` or `METHOD=NONE` has been read: only then
    /// can a FairPlay key stand beside another METHOD (``flushPeriod``).
    var sawOtherMethod = false
    /// The playlist's key map: each URI written and the key behind it (``KeyMap``); what the title checks.
    var keyMap: KeyMap
    /// The playlist's own key map, noted at each period and joined to the title's (``keyMap``) at the
    /// end: its keys kept as they are too. A kept key's old URI is its new one, so it tells its key against
    /// the playlist's other periods only (a title half migrated, by a run that was stopped, has one key
    /// under its old URI in one rendition and its new one in another): those entries (by URI and key) stay
    /// out of the title's.
    var playlistKeys = KeyMap()
    var keptEntries = DigestTable()
    var keyNumbers = KeyNumbers()
    /// The digest of the URI the run's template rendered last.
    var lastRendered: UInt64?
    /// The old URI searched for secrets last, and what it holds.
    var scannedOldURI = ByteBuffer()
    var scannedOldURISecrets: [Secret] = []
    var hasScannedOldURI = false
    /// How many of the playlist's secrets the URI rendered last was searched for (``holdsSecret(_:)``).
    var searchedSecrets = -1
    /// The FairPlay keys rendered in the period being read, noted in the key maps at its end, when all
    /// that tells its key has been read: the URI's digest, the line, key truth's key id, the old URI's
    /// digest, and whether the key is kept as it is.
    var periodKeys: [(uri: UInt64, line: Int, truth: KeyEvidence?, oldURI: UInt64?, kept: Bool)] = []

    init(applier: MediaPlaylistApplier, identity: PlaylistIdentity, plan: MediaPlaylistApplier.Plan) {
        self.applier = applier
        self.identity = identity
        self.plan = plan
        self.uris = applier.uris.forPlaylist(identity)
        self.keyMap = applier.titleKeys
        self.outcome = PlaylistOutcome(path: identity.path, kind: .unknown)
        let names = applier.options.template.definition.uri.variableNames
        self.wantsKeyIndex = names.contains("key_index")
        self.periods = KeyPeriods(keepsKid: names.contains("kid"))
        self.wantsKeyID = names.contains("kid") || wantsKeyIndex
        self.collectsSessionKeys = applier.options.collectsSessionKeys
        self.redaction = applier.options.redaction
        let variables = applier.options.variables
        self.truth = PeriodKeyTruth(
            applier.options.keyTruth, identity: identity,
            contentID: variables.commandLine.last(where: { $0.name == "content_id" })?.value
                ?? variables.playlistValues(for: identity)["content_id"]?.value,
            tracks: applier.tracks, writesDocumentKey: applier.writesDocumentKey)
    }

    func collect(_ diagnostic: Diagnostic) {
        guard applier.options.findingPolicy.keeps(diagnostic.id) else { return }
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
                if waits(reader) {
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
            if let content = insertedKey(index: 0, line: number) {
                try emitter.insert(content, terminator: lastTerminator, afterUnterminated: false)
            }
        }
        switch line.kind {
        case .tag(.key):
            if try !take(key: line, reader, into: &emitter) { try keep(line, reader, into: &emitter) }
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
                try keep(line, reader, into: &emitter)
            }
        case .tag(.map) where applier.options.keyTruth.kidFromMedia:
            if let tag = line.parseTag(), var map = MapTag(tag) {
                map.uri = reader.variables.substitute(map.uri).text
                truth?.note(map: map)
            }
            try keep(line, reader, into: &emitter)
        case .tag(let name?) where name.scope == .mediaSegment && name != .map && reader.segmentCount == 0:
            if firstSegmentTag == nil { firstSegmentTag = (number, line.raw.offset) }
            try keep(line, reader, into: &emitter)
        case .uri where reader.segmentCount == 1 && firstSegmentTag == nil:
            firstSegmentTag = (number, line.raw.offset)
            try keep(line, reader, into: &emitter)
        default:
            try keep(line, reader, into: &emitter)
        }
        if number == 1, plan.insertVersion, line.raw.part.endsLine {
            try emitter.insert(KeyFormatVersion.line, terminator: lastTerminator, afterUnterminated: line.raw.terminator == .none)
        }
    }

    /// Takes a key line of the period: a FairPlay key FairPlay can use is rewritten, any other passes as it
    /// is; each is written at once unless it waits (``waits(_:)``, or a FairPlay key whose URI needs what
    /// the period may still say). Whether it is FairPlay's is told by the format the reader recorded for it
    /// (or, for a key that went into no force, read in place), and what the period needs of it is read in
    /// place: nothing of a key is copied but its bytes. `false` for a line that is not a key the reader
    /// read (it is kept where it stands).
    private mutating func take<Emitter: PlaylistEmitter & ~Copyable>(
        key line: PlaylistLine, _ reader: PlaylistReader, into emitter: inout Emitter
    ) throws(IOError) -> Bool {
        let content = line.content
        let number = line.raw.number
        if !sawOtherMethod { sawOtherMethod = !Self.startsWithUsualMethod(content) }
        guard KeyLine.isKeyLine(content),
            let isFairPlay = reader.currentKeyFormat(is: FairPlay.keyFormat) ?? reader.withCurrentAttributes(KeyLine.isFairPlay)
        else { return false }
        periods.note(line: number, segments: reader.segmentCount, isFairPlay: isFairPlay)
        lastKeyTerminator = line.raw.terminator
        guard isFairPlay else {
            // A KEYFORMAT written with {$variable} may be FairPlay's: neither rewritten nor given a second
            // FairPlay key beside it (validate, which substitutes, would reject either).
            if let base = content.baseAddress, memchr(base, Int32(UInt8(ascii: "{")), content.count) != nil,
                reader.withCurrentAttributes({ $0["KEYFORMAT"]?.mayReferenceVariable ?? false }) == true
            {
                report(
                    ApplyDiagnostics.keyFormatVariable,
                    "this key's KEYFORMAT uses a {$variable}, so it may be FairPlay's: write the KEYFORMAT out; "
                        + "the playlist is left as it was", line: number)
            }
            // What tells the period's key: the first KEYID, else the other keys' URIs.
            periods.noteKeyID(of: UnsafeRawBufferPointer(content)) { periods in
                _ = reader.withCurrentAttributes { attributes in
                    if let keyID = attributes["KEYID"] {
                        periods.note(keyID: keyID.textBytes)
                    } else if let uri = attributes["URI"] {
                        periods.note(otherKeyURI: uri.textBytes)
                    }
                    return true
                }
            }
            try pass(key: line, into: &emitter)
            return true
        }
        var spans: FairPlayKeySpans?
        var method: String?
        _ = reader.withCurrentAttributes { attributes in
            if !periods.hasKeyID, let keyID = attributes["KEYID"] { periods.note(keyID: keyID.textBytes) }
            let found = FairPlayKeySpans(attributes)
            if found.isSampleAES {
                spans = found
            } else {
                method = found.method.map { AttributeView(line: attributes.line, span: $0).text } ?? "(none)"
            }
            return true
        }
        guard let spans else {
            report(
                ApplyDiagnostics.unusableMethod,
                "this FairPlay key has METHOD=\(method ?? "(none)"): FairPlay decrypts SAMPLE-AES only; the key is left as it is",
                line: number)
            try pass(key: line, into: &emitter)
            return true
        }
        // Its URI may need the period's KEYID from a key after it, or the init segment of an EXT-X-MAP
        // after it: then it waits for the period's end.
        let rendersNow = !(wantsKeyID && !periods.hasKeyID) && !applier.options.keyTruth.kidFromMedia
        lastKeyHeld = !held.isEmpty || !rendersNow
        if lastKeyHeld {
            held.holdFairPlayKey(line.raw.bytes, terminator: line.raw.terminator, line: number, spans: spans)
        } else {
            try write(fairPlayKey: line.raw.bytes, terminator: line.raw.terminator, spans: spans, line: number, reader, into: &emitter)
        }
        return true
    }

    /// A key line written as it is: at once, unless lines before it wait.
    private mutating func pass<Emitter: PlaylistEmitter & ~Copyable>(key line: PlaylistLine, into emitter: inout Emitter) throws(IOError) {
        lastKeyHeld = !held.isEmpty
        if lastKeyHeld {
            held.holdKey(line.raw.bytes, terminator: line.raw.terminator, line: line.raw.number)
        } else {
            try emitter.keep(line.raw.bytes, firstLine: line.raw.number, lineCount: 1)
        }
    }

    /// Whether a line that is not a key, read now, waits for the period's end: in a period, after a line
    /// that waits, or while a FairPlay key may be inserted after the period's last key (``needsFairPlayKey(_:)``;
    /// a key read later puts the insertion after itself, and this line before it). Every other line is
    /// written as it is read: a period whose FairPlay key is rewritten at once holds nothing.
    private func waits(_ reader: PlaylistReader) -> Bool {
        periods.inGroup && (!held.isEmpty || needsFairPlayKey(reader))
    }

    /// Whether the period, as read so far, gets a FairPlay key after its last key: keys are in force and
    /// none of the period's own is FairPlay's. (A FairPlay key of an earlier period still in force does not
    /// serve it: its other systems' keys may have rotated, and FairPlay would play it with the old key.)
    private func needsFairPlayKey(_ reader: PlaylistReader) -> Bool {
        reader.hasKeysInForce && !periods.hasFairPlayKey
    }

    /// A FairPlay key line (`raw`: its content and terminator) rewritten and written.
    private mutating func write<Emitter: PlaylistEmitter & ~Copyable>(
        fairPlayKey raw: UnsafeRawBufferPointer, terminator: LineTerminator, spans: FairPlayKeySpans, line: Int,
        _ reader: PlaylistReader, into emitter: inout Emitter
    ) throws(IOError) {
        let content = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - terminator.length)])
        if rewrite(content, spans: spans, line: line, reader) {
            try emitter.replace(content, with: rewrittenLine.bytes, terminator: terminator)
        } else {
            try emitter.keep(raw, firstLine: line, lineCount: 1)
        }
    }

    private mutating func keep<Emitter: PlaylistEmitter & ~Copyable>(
        _ line: PlaylistLine, _ reader: PlaylistReader, into emitter: inout Emitter
    ) throws(IOError) {
        let lineCount = line.raw.part.endsLine ? 1 : 0
        if waits(reader) {
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
        defer {
            notePeriodKeys()
            periods.end()
        }
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
        if needsFairPlayKey(reader) {
            let usable = { (attributes: AttributeList) in attributes.attribute("METHOD", is: FairPlay.method) }
            if let unusable = reader.firstKeyInForce(where: { !usable($0) }) {
                let key = KeyTag(attributes: unusable.attributes, isSessionKey: false)
                report(
                    ApplyDiagnostics.unusableMethod,
                    "key period \(index) is encrypted with METHOD=\(key.method) (KEYFORMAT \(key.keyFormat), "
                        + "line \(unusable.line)): FairPlay decrypts SAMPLE-AES only, so no FairPlay key can be added",
                    line: periods.lastKeyLine)
            } else {
                insertion = insertedKey(index: index, line: periods.lastKeyLine)
            }
        }
        // After the period's last key: before the lines held, when that key was written as it was read.
        if !lastKeyHeld, let insertion {
            try emitter.insert(insertion, terminator: lastTerminator, afterUnterminated: lastKeyTerminator == .none)
        }
        guard !held.isEmpty else { return }
        // The lines that waited, out of the walk while they are written (the walk changes as they are).
        var held = HeldPeriod()
        swap(&held, &self.held)
        defer {
            held.removeAll()
            swap(&held, &self.held)
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
            case .fairPlayKey(let read, let terminator, let line, let spans):
                try write(
                    fairPlayKey: UnsafeRawBufferPointer(rebasing: held.bytes.bytes[read]), terminator: terminator, spans: spans, line: line,
                    reader, into: &emitter)
                if line == periods.lastKeyLine, let insertion {
                    try emitter.insert(insertion, terminator: lastTerminator, afterUnterminated: terminator == .none)
                }
            }
        }
    }

    /// Rewrites the FairPlay key line `content` (its attributes at `spans`) into ``rewrittenLine``: its URI
    /// rendered, written by the applier's one writer; `false` when it stays as it is (the same URI, or an
    /// error reported).
    private mutating func rewrite(_ content: UnsafeRawBufferPointer, spans: FairPlayKeySpans, line: Int, _ reader: PlaylistReader) -> Bool {
        // The key as a whole, parsed from its bytes where the URI is not all that changes or a master wants it.
        var parsed: KeyLine?
        let key = { () -> KeyLine in
            if let parsed { return parsed }
            let prefix = "#EXT-X-KEY:".utf8.count
            let made = KeyLine(attributes: AttributeListParser.parse(content, from: prefix).list, variables: reader.variables)!
            parsed = made
            return made
        }
        var changed = false
        // The old URI read in place where it stands as it is read (a quoted URI without `{$…}`).
        let rendered: Bool
        if let span = spans.uri {
            rendered = AttributeView(line: content, span: span).textBytes.withMemoryRebound(to: UInt8.self) {
                renderURI(oldURI: $0, line: line)
            }
        } else {
            rendered = key().resolvedURI.map { Array($0.utf8) }.withOptionalBuffer { renderURI(oldURI: $0, line: line) }
        }
        guard rendered else { return false }
        let uri = renderedURI
        let signaled = truth?.current?.signaled
        do {
            changed = try applier.rewrite(content, spans: spans, uri: uri, signaled: signaled, parsed: key, into: &rewrittenLine)
        } catch {
            report(ApplyDiagnostics.unwritable, "\(error); the key is not rewritten and the playlist is left as it was", line: line)
            return false
        }
        // (No optional key held otherwise: one costs a copy and a destroy through its type's witnesses.)
        if collectsSessionKeys {
            use(applier.sessionKey(key(), uri: String(decoding: uri, as: UTF8.self), signaled: signaled))
        } else {
            use(nil)
        }
        if changed {
            let keeping = applier.options.keepsChangeDetails
            record(
                line: line, tag: "EXT-X-KEY", .rewritten, before: keeping ? Array(content) : nil, after: keeping ? rewrittenLine.array : nil
            )
        }
        if spans.uri == nil, key().uriMayReferenceVariable {
            report(
                ApplyDiagnostics.literalAfterDefine,
                "the key URI used {$…} references; it is now written as the literal \(String(decoding: uri, as: UTF8.self))",
                line: line)
        }
        return changed
    }

    /// The line of a FairPlay key inserted into key period `index` (at `line`), noted and counted; `nil`
    /// after reporting why there is none.
    private mutating func insertedKey(index: Int, line: Int) -> [UInt8]? {
        guard renderURI(oldURI: nil, line: line) else { return nil }
        let uri = String(decoding: renderedURI, as: UTF8.self)
        let key = applier.insertedKey(uri: uri, signaled: truth?.current?.signaled)
        let content: [UInt8]
        do {
            content = try key.line(.key)
        } catch {
            report(ApplyDiagnostics.unwritable, "\(error); no key is written and the playlist is left as it was", line: line)
            return nil
        }
        use(collectsSessionKeys ? key : nil)
        record(line: line, tag: "EXT-X-KEY", .inserted, before: nil, after: content)
        return content
    }

    /// Renders the URI of a FairPlay key of the period being written whose URI is now `oldURI` (`nil`: a
    /// key being inserted), as the run's key URIs render it, into ``renderedURI``; `false` after reporting
    /// why it has none.
    private mutating func renderURI(oldURI: UnsafeBufferPointer<UInt8>?, line: Int) -> Bool {
        var periodKey: PeriodKeyTruth.Key?
        if truth != nil {
            switch truth!.key(forPeriod: periods.index) {
            case .success(let key): periodKey = key
            case .failure(let problem):
                reportOnce(problem, line: line)
                return false
            }
        }
        let oldSecrets = oldURI.map { secrets(inOldURI: UnsafeRawBufferPointer($0)) } ?? []
        // The key's number: counted by what tells each key, so that a clear period or a key met again shifts nothing.
        let truthEvidence = periodKey.flatMap { key in key.hex.withUnsafeBytes { KeyEvidence(kind: .keyTruth, keyIDHex: $0) } }
        // The old URI tells the key only where no KEYID does (key truth, or a KEYID read already, comes first).
        let oldURIDigest = truthEvidence == nil && !periods.hasKeyID ? oldURI.map { KeyEvidence.digest(UnsafeRawBufferPointer($0)) } : nil
        let number = wantsKeyIndex ? keyNumbers.number(of: truthEvidence ?? periods.evidence(oldURI: oldURIDigest)) : 0
        // The period's KEYID, read in place (the array shares the period's storage while it is read).
        let kid = periods.kid
        keptURI = nil
        var sameURI = false
        do throws(KeyURIs.Unrendered) {
            try kid.withUnsafeBufferPointer { (kid) throws(KeyURIs.Unrendered) in
                let key = KeyURIs.Key(oldURI: oldURI, index: number, kid: kid.isEmpty ? nil : kid, truth: periodKey, oldSecrets: oldSecrets)
                sameURI = try uris.render(key, noting: &outcome)
            }
        } catch {
            switch error {
            case .alreadyMade:
                // Kept as it is: still the period's URI, which the rotation check notes.
                var kept = ByteBuffer()
                if let oldURI { kept.append(oldURI) }
                keptURI = kept
            case .refused(let kind, let message):
                report(kind, message, line: line)
                return false
            }
        }
        // Whether the URI holds a secret, for the report's digest of it (none then): the template's, or a value's the
        // URI carries whole, or the old URI's where it is kept.
        // (The URI rendered last again, with no secret found since it was searched, is searched no more.)
        if !outcome.keyURIsHoldSecrets,
            keptURI == nil
                ? uris.uris.makesSecretURIs
                    || (uris.copiesKeyValues && !(sameURI && searchedSecrets == outcome.secretValues.count)
                        && holdsSecret(renderedURI))
                : !oldSecrets.isEmpty
        {
            outcome.keyURIsHoldSecrets = true
        }
        // A new URI is not searched for secrets: its template's secret values are noted as it renders, and a
        // template knows its secret places when it is read (an inline one of a shipped secret form, a value
        // where the bearer-token rule takes one: KeyTemplate.withBearerSecrets); the values put into it were
        // searched as they came in (the old URI, --var, the catalogue row, the CPIX document).
        // The URI rendered last again (what it depends on repeats): its digest too.
        let digest =
            sameURI && keptURI == nil && lastRendered != nil ? lastRendered! : KeyEvidence.digest(UnsafeRawBufferPointer(renderedURI))
        lastRendered = keptURI == nil ? digest : nil
        let kept = oldURI.map { Bytes.equal(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(renderedURI)) } ?? false
        periodKeys.append((digest, line, truthEvidence, oldURIDigest, kept))
        return true
    }

    /// Whether the URI rendered holds a secret known to the run or found in the playlist so far; how many of
    /// the latter it was searched for is kept (``searchedSecrets``).
    private mutating func holdsSecret(_ uri: UnsafeBufferPointer<UInt8>) -> Bool {
        searchedSecrets = outcome.secretValues.count
        return redaction.adding(outcome.secretValues).hidesSomething(in: String(decoding: uri, as: UTF8.self))
    }

    /// The secrets an old URI holds (``OldURISecrets``), noted in the outcome: searched for once for a URI
    /// that repeats at every key period (a title whose key does not rotate).
    private mutating func secrets(inOldURI uri: UnsafeRawBufferPointer) -> [Secret] {
        if hasScannedOldURI, Bytes.equal(uri, scannedOldURI.bytes) { return scannedOldURISecrets }
        scannedOldURISecrets = applier.oldSecrets.secrets(in: uri)
        if !scannedOldURISecrets.isEmpty { outcome.secretValues.formUnion(scannedOldURISecrets) }
        scannedOldURI.removeAll()
        scannedOldURI.append(uri)
        hasScannedOldURI = true
        return scannedOldURISecrets
    }

    /// The URI ``renderURI(oldURI:line:)`` rendered last, read in place: valid until the next render.
    private var renderedURI: UnsafeBufferPointer<UInt8> { keptURI?.utf8 ?? uris.uri.utf8 }

    /// Notes the URIs rendered for the period that ends in the key map, with the strongest evidence of its
    /// key (key truth, else what the period told: ``KeyPeriods/evidence(oldURI:)``): a URI given to two
    /// keys, or a key given two URIs, is an error, said once.
    private mutating func notePeriodKeys() {
        guard !periodKeys.isEmpty else { return }
        for key in periodKeys {
            guard let evidence = key.truth ?? periods.evidence(oldURI: key.oldURI) else { continue }
            // A kept key's old URI is no evidence across renditions; KEYIDs and key truth are.
            if key.kept, evidence.kind == .oldURI { _ = keptEntries.insertIfAbsent(key.uri ^ evidence.digestWord) }
            guard
                let conflict = playlistKeys.note(
                    uri: key.uri, evidence: evidence, at: KeyMap.Place(playlist: identity.path, line: key.line))
            else { continue }
            reportKeyConflict(conflict)
            break
        }
        periodKeys.removeAll(keepingCapacity: true)
    }

    /// Joins the playlist's key map to the title's: the first playlist's is the title's as it is.
    private mutating func joinTitleKeys() {
        if keyMap.entries.isEmpty, keptEntries.count == 0 {
            keyMap = playlistKeys
            return
        }
        for entry in playlistKeys.entries where keptEntries[entry.uri ^ entry.evidence.digestWord] == nil {
            guard let conflict = keyMap.note(uri: entry.uri, evidence: entry.evidence, at: entry.place) else { continue }
            reportKeyConflict(conflict)
            return
        }
    }

    private func reportKeyConflict(_ conflict: KeyMap.Conflict) {
        let variables = applier.options.template.definition.uri.variableNames
        var message = conflict.message(writing: true, variables: variables)
        let (first, second) = (conflict.first, conflict.second)
        if applier.besideRun.contains(first.place.playlist) {
            // A rendition beside this one, not part of the run, keeps the URI it has: the title changes whole.
            let breaks = if case .twoURIsForOneKey = conflict { "one key, two URIs" } else { "one URI for two keys" }
            message =
                "this key period's key (\(second.evidence)) and the key of \(first.place), a rendition of the same title that "
                + "is not part of this run and keeps its FairPlay URI, would have \(breaks); apply the title (its master or its "
                + "folder) so that its renditions change together, or write this playlist to "
                + "\(applier.options.variables.names[.elsewhere])"
        }
        report(conflict.kind(writing: true), message + "; the playlist is left as it was", line: conflict.second.place.line)
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

    /// Reports `problem` at `line` unless the same was reported already (a problem of the playlist, not of
    /// its period, would otherwise be said at every key).
    private mutating func reportOnce(_ problem: KeyTruthProblem, line: Int) {
        guard reportedTruthProblems.insert(problem.message).inserted else { return }
        report(KeyTruthDiagnostics.noKeyTruth, problem.message + "; the playlist is left as it was", line: line)
    }

    /// Notes that a FairPlay key is written, and keeps its value (when `key` is given) for the master.
    private mutating func use(_ key: KeyAttributes?) {
        writesFairPlay = true
        if let key, seenKeys.insert(key).inserted { keys.append(key) }
    }

    /// Counts a change, and keeps it (its lines as text, secrets redacted) when details are kept.
    private mutating func record(line: Int, tag: String, _ action: ApplyChange.Action, before: [UInt8]?, after: [UInt8]?) {
        // Made only when the change is kept: most runs count their changes and no more.
        guard applier.options.keepsChangeDetails else { return outcome.counts.add(tag: tag, action: action) }
        let (redaction, secrets, truth) = (redaction, outcome.secretValues, truth)
        outcome.record(tag: tag, action: action, keeping: true) {
            // The secrets of this playlist's own values and old URIs too, as they are found.
            let redaction = secrets.isEmpty ? redaction : redaction.adding(secrets)
            let keyID = tag == "EXT-X-KEY" ? truth?.current?.keyID : nil
            return ApplyChange(
                line: line, tag: tag, action: action,
                before: before.map { redaction.redacted(String(decoding: $0, as: UTF8.self)) },
                after: after.map { redaction.redacted(String(decoding: $0, as: UTF8.self)) }, kid: keyID?.kid.uuid,
                kidSource: keyID?.source, kidFile: keyID?.file)
        }
    }

    /// The end of the pass: clear media and EXT-X-VERSION, which needed the whole playlist.
    mutating func result(_ reader: PlaylistReader) -> MediaPlaylistApplier.PassResult {
        var followUp = plan
        var needsFollowUp = false
        var versionDigitOffset: Int?
        if !periods.sawKeys, reader.segmentCount > 0, let first = firstSegmentTag {
            // A follow-up pass has inserted (and counted) the key where the plan said: not again here.
            if applier.options.assumeEncrypted {
                if plan.clearInsertionLine == nil, insertedKey(index: 0, line: first.line) != nil {
                    followUp.clearInsertionLine = first.line
                    needsFollowUp = true
                }
            } else {
                report(
                    ApplyDiagnostics.clearPlaylist,
                    "no segment of this playlist is encrypted; no FairPlay key is added (give \(applier.options.variables.names[.assumeEncrypted]) if they are)",
                    line: first.line)
            }
        }
        if writesFairPlay {
            let current = version.map { (line: $0.line, text: $0.text) }
            switch KeyFormatVersion.change(of: current, in: &outcome, keeping: applier.options.keepsChangeDetails) {
            case .none: break
            case .raise where !plan.raiseVersion:
                followUp.raiseVersion = true
                if let digit = version?.digitOffset { versionDigitOffset = digit } else { needsFollowUp = true }
            case .insert where !plan.insertVersion:
                followUp.insertVersion = true
                needsFollowUp = true
            case .raise, .insert: break
            }
        }
        notePeriodKeys()
        joinTitleKeys()
        outcome.kind = reader.kind
        outcome.sortChanges()
        outcome.diagnostics = box.diagnostics.sorted { $0.location.line < $1.location.line }
        // Messages and changes hid the command line's secrets as they were made; the playlist's own (a
        // catalogue row, a --match group) are known now.
        if !outcome.secretValues.isEmpty { outcome.redact(redaction.adding(outcome.secretValues)) }
        outcome.fairPlayKeys = keys
        outcome.keyMap = keyMap
        return MediaPlaylistApplier.PassResult(
            outcome: outcome, followUp: needsFollowUp ? followUp : nil, versionDigitOffset: needsFollowUp ? nil : versionDigitOffset)
    }
}

extension Optional where Wrapped == [UInt8] {
    /// `body` with the bytes' buffer, or with `nil`.
    fileprivate func withOptionalBuffer<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard let self else { return body(nil) }
        return self.withUnsafeBufferPointer { body($0) }
    }
}
