import Glibc
import SKDBytes

/// Reads a playlist line by line and keeps the state a line's meaning depends on: the playlist kind so far,
/// the keys in force, the variables defined, which URI lines are segments.
///
/// It streams: memory depends on the longest line, never on the number of segments. Problems are reported
/// through ``onDiagnostic`` as they are found and never stop the reading.
///
/// ```swift
/// let reader = PlaylistReader(source: try FileDescriptorSource.open(path: path), path: path)
/// reader.onDiagnostic = { print($0) }
/// while let line = try reader.next() {
///     if case .tag(.key) = line.kind, let key = reader.currentTag.flatMap(KeyTag.init) { print(key.method) }
/// }
/// ```
public final class PlaylistReader {
    /// Called with each finding, in line order.
    public var onDiagnostic: (Diagnostic) -> Void = { _ in }

    // All mutable state lives in one value, so each line costs one access to the object rather than one
    // per field: the difference is measurable at a few hundred thousand lines a playlist.
    //
    // Unchecked: Swift would otherwise check at run time, at each access, that no other access to `core`
    // overlaps it (swift_beginAccess, ~60 instructions: 2.3M of a 200,000-segment apply). None can: `core`
    // is private, ``onDiagnostic`` is called between accesses (after `core.next()` returns, on a copy of
    // the findings), and the closures given to ``withCurrentAttributes(_:)`` and
    // ``firstKeyInForce(where:)``, which run inside a read of it, must not read the playlist on (documented
    // there).
    @exclusivity(unchecked) private var core: PlaylistReaderCore

    public init(source: any ByteSource, path: String, options: ReaderOptions = ReaderOptions()) {
        core = PlaylistReaderCore(source: source, path: path, options: options)
    }

    public var path: String { core.path }
    public var options: ReaderOptions { core.options }
    public var kind: PlaylistKind { core.segments.kind }
    public var variables: VariableScope { core.variables }
    /// The keys that apply to the next segment, one per KEYFORMAT, in the order their formats appeared.
    public var keysInForce: [KeyInForce] {
        core.keysInForce.map { KeyInForce(key: KeyTag(attributes: $0.list, isSessionKey: false), line: $0.line) }
    }
    /// The first key in force, as read (no ``KeyTag`` built), for which `predicate` holds: for callers that
    /// look at one or two attributes of every key of a long playlist. `predicate` must not read on (call
    /// ``next()`` or ``nextItem()``).
    public func firstKeyInForce(where predicate: (AttributeList) -> Bool) -> (attributes: AttributeList, line: Int)? {
        core.keysInForce.first { predicate($0.list) }.map { ($0.list, $0.line) }
    }

    /// Whether a key whose KEYFORMAT is `format` (given explicitly, quoted) is in force: decided on the
    /// format each key was read with, without a look at its attributes, as it is asked at every key period.
    public func hasKeyInForce(format: String) -> Bool { core.hasKeyInForce(format: format) }

    /// What `body` says of the attributes of the tag line ``next()`` returned last, seen in place rather than
    /// copied (``currentAttributes`` copies them): asked of every key of a playlist that `apply` rewrites.
    /// `nil` when the reader did not read that line's attributes. (Not generic: unspecialised across
    /// modules, a generic one cost more than the copy it saves.) `body` must not read on (call ``next()``
    /// or ``nextItem()``).
    public func withCurrentAttributes(_ body: (AttributeListView) -> Bool) -> Bool? {
        core.withCurrentAttributes(body)
    }

    /// Whether the EXT-X-KEY line ``next()`` returned last went into force with KEYFORMAT `format` (its
    /// first KEYFORMAT, quoted; `identity` when it has none), told from the format the reader recorded for
    /// it rather than from its attributes: asked of every key of a playlist that `apply` rewrites. `nil`
    /// when that line put no key in force (another line, or METHOD=NONE).
    public func currentKeyFormat(is format: String) -> Bool? {
        core.currentKeyFormat(is: format)
    }

    /// Every key in force, as read (attributes, no ``KeyTag`` built), with its line.
    public var keyAttributesInForce: [(attributes: AttributeList, line: Int)] { core.keysInForce.map { ($0.list, $0.line) } }

    /// Whether any key is in force.
    public var hasKeysInForce: Bool { !core.keysInForce.isEmpty }
    public var segmentCount: Int { core.segments.segmentCount }
    public var errorCount: Int { core.errorCount }
    public var warningCount: Int { core.warningCount }
    /// The number of lines read so far.
    public var lineCount: Int { core.lineCount }
    /// Whether the tag line just read ends in a `\` that cuts its attribute list (reported): the next line,
    /// handed out as a comment, is the rest of the tag.
    public var continuesOnNextLine: Bool { core.previousTagContinues }
    /// The tag of the line ``next()`` returned last, if the reader parsed it: every tag but `EXTINF` when
    /// ``ReaderOptions/parsesEveryTag``, keys and variable definitions always. (`EXTINF` is checked without
    /// building a value: doing that for every segment would cost more than all the rest of the reading.)
    public var currentTag: Tag? { core.currentTag() }
    /// The attribute list of the line ``next()`` returned last, when the reader checked it (keys and
    /// variable definitions always; every tag with ``ReaderOptions/parsesEveryTag``): the line is copied
    /// once, and not parsed again.
    public var currentAttributes: AttributeList? { core.currentAttributes() }

    /// The next run of plain lines, or else the next line; `nil` once the input is exhausted.
    ///
    /// Plain lines are those that need no attention from a caller that rewrites or copies a playlist: a
    /// well-formed `EXTINF`, the URI of its segment, blank lines and comments, all clean. They come as a
    /// ``LineRun`` of bytes to pass on as they are; every other line comes alone, as from ``next()``. Reading
    /// by items is several times faster than line by line, and reports the same findings.
    public func nextItem() throws(IOError) -> PlaylistItem? {
        if let run = core.nextRun() { return .run(run) }
        return try next().map(PlaylistItem.line)
    }

    /// The next line, or `nil` once the input is exhausted (end-of-input findings are reported then).
    public func next() throws(IOError) -> PlaylistLine? {
        let line = try core.next()
        if !core.pending.isEmpty {
            for diagnostic in core.pending { onDiagnostic(diagnostic) }
            core.pending.removeAll(keepingCapacity: true)
        }
        return line
    }
}

/// What ``PlaylistReader/nextItem()`` returns.
public enum PlaylistItem {
    case line(PlaylistLine)
    case run(LineRun)
}

/// The reader's state and per-line logic.
private struct PlaylistReaderCore: ~Copyable {
    let path: String
    let options: ReaderOptions
    var segments = SegmentState()
    var variables: VariableScope
    /// The keys in force as read (their attributes), turned into ``KeyTag``s only when asked for.
    var keysInForce: [(list: AttributeList, line: Int, format: [UInt8])] = []
    var errorCount = 0
    var warningCount = 0
    var lineCount = 0
    /// Findings not yet handed to the reader's handler.
    var pending: [Diagnostic] = []
    /// The content of the line last returned, while it is a tag line (valid until the next read).
    private var currentTagLine: UnsafeRawBufferPointer?
    /// The line of the key put in force last, and where the text of its quoted KEYFORMAT stands in that
    /// line (`nil`: it has none, so the default format): what ``currentKeyFormat(is:)`` compares in place.
    private var lastKeyPut: (line: Int, format: Range<Int>?) = (0, nil)
    /// Whether the EXT-X-STREAM-INF waiting for its URI line has a URI attribute (its attributes read).
    private var variantNamesURIAttribute = false
    /// The last answer of ``hasKeyInForce(format:)``, kept while keys of other formats come and go: asked
    /// at every key period, it would otherwise compare the format of every key in force.
    private var knownInForce: (format: String, inForce: Bool)?
    /// Reused for the attribute spans of each tag line; they belong to line `currentSpansLine`.
    private var spans: [AttributeSpan] = []
    private var currentSpansLine = 0

    private var lines: LineReader
    private var seenOnceTags: Set<TagName> = []
    /// The EXT-X-VERSION read so far (1 until one is).
    private var declaredVersion = 1
    private var overlongKind: LineKind = .blank
    /// Where this line's encoding problem (a control character, a tab, bytes not UTF-8) is: the attribute
    /// grammar findings it causes from there on are the same mistake and not reported again.
    private var encodingProblemColumn: Int?
    /// At most `maximumDiagnosticsPerKind` findings of a kind.
    private var cap: FindingCap
    private var finished = false
    /// Set when a size limit stopped the reading: nothing more is read or reported.
    private var stoppedAtLimit = false
    /// Set when the input is not a playlist at all: it is still read (and copied), but that one finding
    /// says all there is to say.
    private var notAPlaylist = false
    /// Set when the last tag line ended in `\`: the next line is the rest of that tag, not a segment URI.
    fileprivate(set) var previousTagContinues = false
    /// The input offset of the overlong line being passed through, for a limit found in one of its parts.
    private var overlongLineOffset = 0

    init(source: any ByteSource, path: String, options: ReaderOptions) {
        self.path = path
        self.options = options
        self.cap = FindingCap(limit: options.maximumDiagnosticsPerKind)
        self.lines = LineReader(
            source: source, maximumLineLength: options.maximumLineLength,
            maximumInputSize: options.maximumPlaylistSize)
        self.variables = VariableScope(importable: options.importedVariables)
        self.segments.segmentLimit = options.maximumSegmentCount
    }

    mutating func nextRun() -> LineRun? {
        currentTagLine = nil
        guard let run = lines.nextRun(&segments) else { return nil }
        lineCount = run.firstLine + run.lineCount - 1
        return run
    }

    func currentTag() -> Tag? {
        // Checked as it was read: its attribute spans are kept for it, where it has a list the reader tokenised.
        currentTagLine.map { TagParser.tag(ofChecked: $0, spans: currentSpansLine == lineCount ? spans : nil) }
    }

    func currentAttributes() -> AttributeList? {
        guard let line = currentTagLine, currentSpansLine == lineCount else { return nil }
        // A key just put in force already holds a copy of its line: hand that out rather than copy again.
        if let key = keysInForce.first(where: { $0.line == lineCount }) { return key.list }
        return AttributeList(line: Array(line), spans: spans)
    }

    func currentKeyFormat(is format: String) -> Bool? {
        guard let line = currentTagLine, currentSpansLine == lineCount, lastKeyPut.line == lineCount else { return nil }
        guard let range = lastKeyPut.format else { return format == KeyTag.defaultKeyFormat }
        return Bytes.equal(UnsafeRawBufferPointer(rebasing: line[range]), format)
    }

    mutating func hasKeyInForce(format: String) -> Bool {
        if let known = knownInForce, known.format == format { return known.inForce }
        // By index: a copy of an entry would retain its list and format.
        let inForce = keysInForce.indices.contains { index in keysInForce[index].format.withUnsafeBytes { Bytes.equal($0, format) } }
        knownInForce = (format, inForce)
        return inForce
    }

    func withCurrentAttributes(_ body: (AttributeListView) -> Bool) -> Bool? {
        guard let line = currentTagLine, currentSpansLine == lineCount else { return nil }
        return spans.withUnsafeBufferPointer { body(AttributeListView(line: line, spans: $0)) }
    }

    mutating func next() throws(IOError) -> PlaylistLine? {
        currentTagLine = nil
        guard !stoppedAtLimit, let raw = try lines.next() else {
            finish()
            return nil
        }
        if raw.offset + raw.bytes.count > options.maximumPlaylistSize {
            stopAtSizeLimit(raw)
        }
        let line: PlaylistLine?
        switch raw.part {
        case _ where stoppedAtLimit:
            line = nil
        case .whole:
            lineCount = raw.number
            line = read(raw)
        case .overlongHead:
            lineCount = raw.number
            overlongLineOffset = raw.offset
            line = readOverlongHead(raw)
        case .overlongMiddle, .overlongTail:
            line = PlaylistLine(raw: raw, kind: overlongKind)
        }
        // A limit met on this line (its size, or a segment too many) ends the reading here.
        guard !stoppedAtLimit else {
            finish()
            return nil
        }
        return line
    }

    /// Ends the reading at `raw`, the line (or part of one) that takes the input past the size limit.
    private mutating func stopAtSizeLimit(_ raw: RawLine) {
        stoppedAtLimit = true
        let lineStart = raw.part == .whole || raw.part == .overlongHead ? raw.offset : overlongLineOffset
        let limit = options.maximumPlaylistSize
        let location = SourceLocation(
            path: path, line: raw.number, column: max(1, limit - lineStart + 1), offset: limit)
        emit(
            ParseDiagnostics.playlistTooLarge(
                "the playlist goes past \(limit) bytes, the limit on a playlist's size; nothing from here on is read",
                at: location))
    }

    private mutating func read(_ raw: RawLine) -> PlaylistLine {
        var line = PlaylistLine(raw: raw, kind: .blank)
        if raw.number == 1 {
            if let what = InputSniffer.binaryKind(of: raw.content) {
                report(
                    ParseDiagnostics.notAPlaylist, "this is not a playlist (it looks like \(what)); give the .m3u8 file",
                    on: line, column: 1)
                notAPlaylist = true
            }
            checkStart(&line)
        }
        line.kind = LineKind.classify(line.content)
        let continuesTag = previousTagContinues
        previousTagContinues = false
        // One mistake, one finding: the rest of a tag cut by a `\` (reported on the tag) is not also a
        // segment URI without an EXTINF, and a tag behind spaces is reported once and read as the tag.
        if line.kind == .uri, continuesTag {
            line.kind = .comment
            return line
        }
        var headerReported = false
        if line.kind == .uri, let spaces = Self.spacesBeforeTag(line.content) {
            line.prefixLength += spaces
            line.kind = LineKind.classify(line.content)
            if raw.number == 1 {
                report(ParseDiagnostics.missingHeader, Self.headerMessage(raw.content), on: line, column: 1)
                headerReported = true
            } else {
                report(
                    ParseDiagnostics.whitespace, "remove the spaces before this tag: a line that starts with a space is not a tag",
                    on: line, column: 1)
            }
        }
        let content = line.content
        encodingProblemColumn = nil
        if let problem = EncodingCheck.firstProblem(in: content), !isAllowedTab(problem, in: content, kind: line.kind) {
            report(problem, on: line)
        }
        if raw.number == 1, !headerReported, line.kind != .tag(.extM3U) || content.count != 7 {
            report(ParseDiagnostics.missingHeader, Self.headerMessage(content), on: line, column: 1)
        }
        switch line.kind {
        case .tag(let name?): readTag(name, &line)
        case .uri:
            checkSurroundingSpaces(on: &line)
            readURI(&line)
        case .blank:
            checkSurroundingSpaces(on: &line)
        case .tag(nil), .comment: break
        }
        return line
    }

    /// RFC 8216 4.1: no whitespace but where an element allows it, so none around a URI and no line of
    /// spaces. Tabs are reported as tabs already (one finding for one mistake). The URI is then read
    /// without the spaces, as its author meant it, so that nothing else trips on them.
    private mutating func checkSurroundingSpaces(on line: inout PlaylistLine) {
        let content = line.content
        guard let first = content.first, let last = content.last else { return }
        let space = UInt8(ascii: " ")
        guard first == space || last == space else { return }
        let message =
            line.kind == .blank
            ? "this line holds only spaces; make it empty or remove it"
            : "remove the spaces \(first == space ? (last == space ? "around" : "before") : "after") the URI"
        report(ParseDiagnostics.whitespace, message, on: line, column: first == space ? 1 : content.count)
        guard line.kind == .uri else { return }
        let leading = content.firstIndex { $0 != space } ?? 0
        let trailing = content.count - 1 - (content.lastIndex { $0 != space } ?? content.count - 1)
        line.prefixLength += leading
        line.suffixLength = trailing
    }

    /// How many spaces stand before the `#` that starts `content`, if it is a tag or comment pushed off the
    /// start of its line.
    private static func spacesBeforeTag(_ content: UnsafeRawBufferPointer) -> Int? {
        guard let first = content.firstIndex(where: { $0 != UInt8(ascii: " ") }), first > 0,
            content[first] == UInt8(ascii: "#")
        else { return nil }
        return first
    }

    /// What the first line `content` must become: `#EXTM3U` alone, and where it stands between spaces,
    /// which of them to remove.
    private static func headerMessage(_ content: UnsafeRawBufferPointer) -> String {
        let message = "the first line must be exactly #EXTM3U"
        guard trimmingSpaces(content).elementsEqual("#EXTM3U".utf8) else { return message }
        let space = UInt8(ascii: " ")
        let side = content.first == space ? (content.last == space ? "around" : "before") : "after"
        return message + ": remove the spaces \(side) it"
    }

    private static func trimmingSpaces(_ content: UnsafeRawBufferPointer) -> ArraySlice<UInt8> {
        let bytes = Array(content)
        let start = bytes.firstIndex { $0 != UInt8(ascii: " ") } ?? bytes.count
        let end = bytes.lastIndex { $0 != UInt8(ascii: " ") }.map { $0 + 1 } ?? start
        return bytes[start..<max(start, end)]
    }

    private static let grammarKinds: Set<DiagnosticID> = [
        ParseDiagnostics.attributeSyntax.id, ParseDiagnostics.unterminatedQuote.id, ParseDiagnostics.attributeWhitespace.id,
    ]

    /// Whether the attribute list stops making sense at a `\` that ends the line: a continuation, which
    /// HLS does not have (the next line is the rest of this tag, not a URI).
    private static func endsInContinuation(_ issues: [LineIssue], content: UnsafeRawBufferPointer) -> Bool {
        content.last == UInt8(ascii: "\\") && issues.contains { grammarKinds.contains($0.kind.id) }
    }

    /// A tag's findings without those that only follow from an attribute list cut short: the attributes
    /// after a syntax error are not read, so they are not also "missing". A continuation is said to be
    /// what it is.
    private static func withoutKnockOns(_ issues: [LineIssue], continues: Bool) -> [LineIssue] {
        guard issues.contains(where: { grammarKinds.contains($0.kind.id) }) else { return issues }
        let cutShort: Set<DiagnosticID> = [
            ParseDiagnostics.attributeMissing.id, ParseDiagnostics.keyURIMissing.id, ParseDiagnostics.keyMethodMissing.id,
        ]
        // A space where a comma belongs is one mistake: the whitespace finding says it, the "expected ','" is its echo.
        let spaced = issues.contains { $0.kind.id == ParseDiagnostics.attributeWhitespace.id }
        return issues.filter { !cutShort.contains($0.kind.id) && !(spaced && $0.kind.id == ParseDiagnostics.attributeSyntax.id) }.map {
            issue in
            guard continues, grammarKinds.contains(issue.kind.id) else { return issue }
            var issue = issue
            issue.message = "a tag cannot go on over the next line (RFC 8216 4.1: one tag a line); remove the \\ and join the two lines"
            return issue
        }
    }

    /// A tab inside the quoted value of EXT-X-SKIP's RECENTLY-REMOVED-DATERANGES, which rfc8216bis 4.4.5.2
    /// defines as a tab-delimited list: the one place a playlist may hold one.
    private func isAllowedTab(_ problem: EncodingProblem, in content: UnsafeRawBufferPointer, kind: LineKind) -> Bool {
        guard case .tab = problem, kind == .tag(.skip) else { return false }
        let bytes = Array(content)
        let name = Array("RECENTLY-REMOVED-DATERANGES=\"".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: name) }).map({ $0 + name.count }),
            let close = bytes[start...].firstIndex(of: UInt8(ascii: "\""))
        else { return false }
        return !bytes[..<start].contains(0x09) && !bytes[(close + 1)...].contains(0x09)
    }

    private mutating func checkStart(_ line: inout PlaylistLine) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if line.raw.content.starts(with: bom) {
            line.prefixLength = 3
            report(
                ParseDiagnostics.byteOrderMark, "remove the byte order mark (EF BB BF) before #EXTM3U",
                on: line, column: 1)
        }
    }

    private mutating func readTag(_ name: TagName, _ line: inout PlaylistLine) {
        let content = line.content
        currentTagLine = content
        if name == .extInf {
            if options.parsesEveryTag, let issue = TagParser.checkSegmentDuration(content) {
                report(issue, on: line)
            }
        } else if options.parsesEveryTag || name == .key || name == .define {
            let checked = TagChecker.check(content, name: name, spans: &spans)
            // (Most tags have no issue: nothing more to look at.)
            previousTagContinues = !checked.isEmpty && Self.endsInContinuation(checked, content: content)
            let issues = checked.isEmpty ? checked : Self.withoutKnockOns(checked, continues: previousTagContinues)
            currentSpansLine = line.raw.number
            for issue in issues { report(issue, on: line) }
            if options.parsesEveryTag { checkVariableReferences(in: content, on: line) }
        } else if content.last == UInt8(ascii: "\\") {
            // Not reported in this mode, but the next line is still this tag's rest, not a URI: a master read
            // for its references does not take it for a variant's playlist.
            var scratch = spans
            previousTagContinues = Self.endsInContinuation(TagChecker.check(content, name: name, spans: &scratch), content: content)
        }
        segments.kind.note(name.scope)
        if name.appearsOnce, !seenOnceTags.insert(name).inserted {
            report(
                ParseDiagnostics.tagRepeated, "#\(name.rawValue) may appear only once; remove this one",
                on: line, column: 1)
        }
        if let variant = segments.pendingVariant {
            // RFC 8216 4.3.4.2: the line after EXT-X-STREAM-INF is its URI; a tag there means it has none.
            reportVariantWithoutURI(at: variant)
            segments.pendingVariant = nil
        }
        switch name {
        case .extInf:
            if let earlier = segments.pendingDuration { reportDurationWithoutURI(at: earlier) }
            segments.pendingDuration = (line.raw.number, line.raw.offset)
        case .streamInf:
            segments.pendingVariant = (line.raw.number, line.raw.offset)
            // (A URI written as an attribute, as EXT-X-MEDIA writes it, is the usual reason one has no URI line.)
            variantNamesURIAttribute =
                currentSpansLine == line.raw.number
                && spans.contains { span in AttributeView(line: content, span: span).isNamed("URI") }
        case .version:
            let digits = content.drop { $0 != UInt8(ascii: ":") }.dropFirst()
            if let number = Int(String(decoding: digits, as: UTF8.self)) { declaredVersion = number }
        case .allowCache where declaredVersion >= 7:
            // Valid below version 7; from it, a tag clients do not know and ignore (rfc8216bis 7).
            report(
                ParseDiagnostics.removedTag,
                "EXT-X-ALLOW-CACHE was removed in protocol version 7, and this playlist declares version \(declaredVersion): "
                    + "clients ignore it; remove it", on: line, column: 1)
        case .key:
            applyKey(content, line: line.raw.number)
        case .define:
            if !variables.define(from: TagParser.parse(content).tag) {
                report(
                    ParseDiagnostics.defineDuplicate, "this EXT-X-DEFINE repeats a variable name already defined",
                    on: line, column: 1)
            }
        default:
            break
        }
    }

    /// The most recent key of each KEYFORMAT is in force; `METHOD=NONE` ends them all. Read from the
    /// spans the check just found, so a key costs one copy of its line (into the storage of the key it
    /// replaces, or new storage for a format seen the first time).
    private mutating func applyKey(_ content: UnsafeRawBufferPointer, line: Int) {
        // The format is the first KEYFORMAT's, when quoted, as a lookup by name finds it (a second one is an
        // error the checker reports).
        var format: UnsafeRawBufferPointer?
        var formatRange: Range<Int>?
        var sawFormat = false
        for span in spans {
            let attribute = AttributeView(line: content, span: span)
            if attribute.isNamed("METHOD"), Bytes.equal(attribute.textBytes, "NONE") {
                keysInForce.removeAll()
                if knownInForce != nil { knownInForce!.inForce = false }
                return
            }
            if !sawFormat, attribute.isNamed("KEYFORMAT") {
                sawFormat = true
                if span.isQuoted { (format, formatRange) = (attribute.textBytes, attribute.textRange) }
            }
        }
        // By index: `firstIndex(where:)` handed each entry to its closure as a copy, retaining its list and
        // format (three retains and releases a key).
        var index: Int?
        for candidate in keysInForce.indices {
            let same = keysInForce[candidate].format.withUnsafeBytes { known in
                guard let format else { return known.elementsEqual(Self.defaultKeyFormat) }
                return known.count == format.count && (format.isEmpty || memcmp(known.baseAddress!, format.baseAddress!, format.count) == 0)
            }
            if same {
                index = candidate
                break
            }
        }
        lastKeyPut = (line, formatRange)
        if let known = knownInForce, !known.inForce {
            knownInForce!.inForce = format.map { Bytes.equal($0, known.format) } ?? (known.format == KeyTag.defaultKeyFormat)
        }
        if let index {
            keysInForce[index].list.replace(line: content, spans: spans)
            keysInForce[index].line = line
        } else {
            let list = AttributeList(line: Array(content), spans: spans)
            keysInForce.append((list: list, line: line, format: format.map { Array($0) } ?? Self.defaultKeyFormat))
        }
    }

    private static let defaultKeyFormat = Array(KeyTag.defaultKeyFormat.utf8)

    private mutating func readURI(_ line: inout PlaylistLine) {
        if segments.pendingVariant != nil {
            line.uriRole = .variant
            segments.pendingVariant = nil
        } else {
            guard segments.segmentCount < options.maximumSegmentCount else {
                stoppedAtLimit = true
                report(
                    ParseDiagnostics.tooManySegments,
                    "this is segment \(segments.segmentCount + 1), past the limit of \(options.maximumSegmentCount) segments; nothing from here on is read",
                    on: line, column: 1)
                return
            }
            line.uriRole = .segment(index: segments.segmentCount)
            segments.segmentCount += 1
            if segments.pendingDuration == nil, segments.kind != .master {
                report(
                    ParseDiagnostics.uriWithoutDuration, "add an #EXTINF tag before this segment URI",
                    on: line, column: 1)
            }
            segments.pendingDuration = nil
        }
        let content = line.content
        if options.parsesEveryTag, let base = content.baseAddress,
            memchr(base, Int32(UInt8(ascii: "{")), content.count) != nil
        {
            for name in variables.substitute(line.text).undefined {
                report(
                    ParseDiagnostics.undefinedVariable, "{$\(name)} is used but no EXT-X-DEFINE defines it",
                    on: line, column: 1)
            }
        }
    }

    private mutating func checkVariableReferences(in content: UnsafeRawBufferPointer, on line: PlaylistLine) {
        guard let base = content.baseAddress, memchr(base, Int32(UInt8(ascii: "{")), content.count) != nil else { return }
        for span in spans {
            let attribute = AttributeView(line: content, span: span)
            guard attribute.mayReferenceVariable else { continue }
            for name in variables.substitute(attribute.text).undefined {
                report(
                    ParseDiagnostics.undefinedVariable,
                    "{$\(name)} in \(attribute.name) is used but no EXT-X-DEFINE defines it",
                    on: line, column: span.valueRange.lowerBound + 1)
            }
        }
    }

    private mutating func readOverlongHead(_ raw: RawLine) -> PlaylistLine {
        var line = PlaylistLine(raw: raw, kind: raw.content.first == UInt8(ascii: "#") ? .comment : .uri)
        overlongKind = line.kind
        report(
            ParseDiagnostics.lineTooLong,
            "this line is longer than \(options.maximumLineLength) bytes; it is kept as it is but not read",
            on: line, column: 1)
        if line.kind == .uri { readURI(&line) }
        return line
    }

    private mutating func finish() {
        guard !finished else { return }
        finished = true
        let start = SourceLocation(path: path, line: 1, column: 1, offset: 0)
        // After a limit, the end of the input was not seen: what it would show is unknown.
        if !stoppedAtLimit {
            if lineCount == 0 {
                emit(ParseDiagnostics.emptyPlaylist("the file is empty; a playlist starts with #EXTM3U", at: start))
            }
            if let earlier = segments.pendingDuration { reportDurationWithoutURI(at: earlier) }
            if let variant = segments.pendingVariant { reportVariantWithoutURI(at: variant) }
        }
        pending += cap.summaries()
    }

    // MARK: Reporting

    private mutating func reportVariantWithoutURI(at position: (line: Int, offset: Int)) {
        let location = SourceLocation(path: path, line: position.line, column: 1, offset: position.offset)
        let attribute =
            variantNamesURIAttribute
            ? " (its URI= attribute is not read: EXT-X-STREAM-INF takes its URI from the next line, not from an attribute)" : ""
        emit(
            ParseDiagnostics.variantWithoutURI(
                "this #EXT-X-STREAM-INF has no URI line after it; add the variant's URI on the next line" + attribute, at: location))
    }

    private mutating func reportDurationWithoutURI(at position: (line: Int, offset: Int)) {
        let location = SourceLocation(path: path, line: position.line, column: 1, offset: position.offset)
        emit(ParseDiagnostics.durationWithoutURI("this #EXTINF has no segment URI after it", at: location))
    }

    private mutating func report(_ problem: EncodingProblem, on line: PlaylistLine) {
        switch problem {
        case .controlCharacter(let index, _), .tab(let index), .invalidUTF8(let index):
            encodingProblemColumn = line.prefixLength + index + 1
        }
        switch problem {
        case .controlCharacter(let index, let scalar):
            report(
                ParseDiagnostics.controlCharacter, "remove the control character \(Diagnostic.codePoint(scalar))", on: line,
                column: line.prefixLength + index + 1)
        case .tab(let index):
            report(
                ParseDiagnostics.tabCharacter, "remove the tab (write a space where text needs one)", on: line,
                column: line.prefixLength + index + 1)
        case .invalidUTF8(let index):
            report(
                ParseDiagnostics.invalidUTF8, "the bytes here are not UTF-8; re-encode the playlist as UTF-8",
                on: line, column: line.prefixLength + index + 1)
        }
    }

    private mutating func report(_ issue: LineIssue, on line: PlaylistLine) {
        let column = line.prefixLength + issue.column
        if let encodingProblemColumn, column >= encodingProblemColumn, Self.knockOns.contains(issue.kind.id) { return }
        report(issue.kind, issue.message, on: line, column: column)
    }

    /// The attribute grammar findings a stray byte causes by itself (a tab is whitespace, and ends a value).
    private static let knockOns: Set<DiagnosticID> = [
        ParseDiagnostics.attributeWhitespace.id, ParseDiagnostics.attributeSyntax.id,
        ParseDiagnostics.unterminatedQuote.id,
    ]

    private mutating func report(_ kind: DiagnosticKind, _ message: String, on line: PlaylistLine, column: Int) {
        emit(kind(message, at: line.location(in: path, column: column)))
    }

    private mutating func emit(_ diagnostic: Diagnostic) {
        if notAPlaylist { return }
        switch diagnostic.severity {
        case .error: errorCount += 1
        case .warning: warningCount += 1
        case .info: break
        }
        if cap.admits(diagnostic.id, severity: diagnostic.severity, at: diagnostic.location) { pending.append(diagnostic) }
    }
}
