import Glibc

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
///     if case .tag(.key) = line.kind, let key = line.tag.flatMap(KeyTag.init) { print(key.method) }
/// }
/// ```
public final class PlaylistReader {
    public let path: String
    public let options: ReaderOptions
    /// Called with each finding, in line order.
    public var onDiagnostic: (Diagnostic) -> Void = { _ in }

    public private(set) var kind: PlaylistKind = .unknown
    public private(set) var variables: VariableScope
    /// The keys that apply to the next segment, one per KEYFORMAT, in the order their formats appeared.
    public private(set) var keysInForce: [KeyInForce] = []
    public private(set) var segmentCount = 0
    public private(set) var errorCount = 0
    public private(set) var warningCount = 0
    /// The number of lines read so far.
    public private(set) var lineCount = 0

    private let lines: LineReader
    private var seenOnceTags: Set<TagName> = []
    private var pendingDuration: SourceLocation?
    private var lastLineStart: SourceLocation?
    private var pendingVariant = false
    private var overlongKind: LineKind = .blank
    private var findingsPerKind: [DiagnosticID: Int] = [:]
    private var suppressed: [DiagnosticID: (kind: DiagnosticKind, count: Int)] = [:]
    private var finished = false

    public init(source: any ByteSource, path: String, options: ReaderOptions = ReaderOptions()) {
        self.path = path
        self.options = options
        self.lines = LineReader(source: source, maximumLineLength: options.maximumLineLength)
        self.variables = VariableScope(importable: options.importedVariables)
    }

    /// The next line, or `nil` once the input is exhausted (end-of-input findings are reported then).
    public func next() throws(IOError) -> PlaylistLine? {
        guard let raw = try lines.next() else {
            finish()
            return nil
        }
        switch raw.part {
        case .whole:
            lineCount = raw.number
            lastLineStart = SourceLocation(path: path, line: raw.number, column: 1, offset: raw.offset)
            return read(raw)
        case .overlongHead:
            lineCount = raw.number
            lastLineStart = SourceLocation(path: path, line: raw.number, column: 1, offset: raw.offset)
            return readOverlongHead(raw)
        case .overlongMiddle, .overlongTail:
            return PlaylistLine(raw: raw, kind: overlongKind)
        }
    }

    private func read(_ raw: RawLine) -> PlaylistLine {
        var line = PlaylistLine(raw: raw, kind: .blank)
        if raw.number == 1 { checkStart(&line) }
        let content = line.content
        if let problem = EncodingCheck.firstProblem(in: content) { report(problem, on: line) }
        line.kind = LineKind.classify(content)
        if raw.number == 1, line.kind != .tag(.extM3U) || content.count != 7 {
            report(ParseDiagnostics.missingHeader, "the first line must be exactly #EXTM3U", on: line, column: 1)
        }
        switch line.kind {
        case .tag(let name?): readTag(name, &line)
        case .uri: readURI(&line)
        case .tag(nil), .comment, .blank: break
        }
        return line
    }

    private func checkStart(_ line: inout PlaylistLine) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if line.raw.content.starts(with: bom) {
            line.prefixLength = 3
            report(
                ParseDiagnostics.byteOrderMark, "remove the byte order mark (EF BB BF) before #EXTM3U",
                on: line, column: 1)
        }
    }

    private func readTag(_ name: TagName, _ line: inout PlaylistLine) {
        if name == .extInf {
            if options.parsesEveryTag, let issue = TagParser.checkSegmentDuration(line.content) {
                report(issue, on: line)
            }
        } else if options.parsesEveryTag || name == .key || name == .define {
            let result = TagParser.parse(line.content)
            line.tag = result.tag
            for issue in result.issues { report(issue, on: line) }
            if options.parsesEveryTag, let attributes = result.tag.attributes {
                checkVariableReferences(attributes, on: line)
            }
        }
        kind.note(name.scope)
        if name.appearsOnce, !seenOnceTags.insert(name).inserted {
            report(
                ParseDiagnostics.tagRepeated, "#\(name.rawValue) may appear only once; remove this one",
                on: line, column: 1)
        }
        switch name {
        case .extInf:
            if let earlier = pendingDuration { reportDurationWithoutURI(at: earlier) }
            pendingDuration = line.location(in: path)
        case .streamInf:
            pendingVariant = true
        case .allowCache:
            report(
                ParseDiagnostics.removedTag,
                "EXT-X-ALLOW-CACHE was removed in protocol version 7; remove it", on: line, column: 1)
        case .key:
            if let key = line.tag.flatMap(KeyTag.init) { apply(key, line: line.raw.number) }
        case .define:
            if let tag = line.tag, !variables.define(from: tag) {
                report(
                    ParseDiagnostics.defineDuplicate, "this EXT-X-DEFINE repeats a variable name already defined",
                    on: line, column: 1)
            }
        default:
            break
        }
    }

    /// The most recent key of each KEYFORMAT is in force; `METHOD=NONE` ends them all.
    private func apply(_ key: KeyTag, line: Int) {
        if key.isClear {
            keysInForce.removeAll()
        } else if let index = keysInForce.firstIndex(where: { $0.key.keyFormat == key.keyFormat }) {
            keysInForce[index] = KeyInForce(key: key, line: line)
        } else {
            keysInForce.append(KeyInForce(key: key, line: line))
        }
    }

    private func readURI(_ line: inout PlaylistLine) {
        if pendingVariant {
            line.uriRole = .variant
            pendingVariant = false
        } else {
            line.uriRole = .segment(index: segmentCount)
            segmentCount += 1
            if pendingDuration == nil, kind != .master {
                report(
                    ParseDiagnostics.uriWithoutDuration, "add an #EXTINF tag before this segment URI",
                    on: line, column: 1)
            }
            pendingDuration = nil
        }
        let content = line.content
        if options.parsesEveryTag, let base = content.baseAddress, memchr(base, Int32(UInt8(ascii: "{")), content.count) != nil {
            for name in variables.substitute(line.text).undefined {
                report(
                    ParseDiagnostics.undefinedVariable, "{$\(name)} is used but no EXT-X-DEFINE defines it",
                    on: line, column: 1)
            }
        }
    }

    private func checkVariableReferences(_ attributes: AttributeList, on line: PlaylistLine) {
        for attribute in attributes.attributes where VariableScope.mayReference(attribute.text) {
            for name in variables.substitute(attribute.text).undefined {
                report(
                    ParseDiagnostics.undefinedVariable,
                    "{$\(name)} in \(attribute.name) is used but no EXT-X-DEFINE defines it",
                    on: line, column: attribute.valueColumn)
            }
        }
    }

    private func readOverlongHead(_ raw: RawLine) -> PlaylistLine {
        var line = PlaylistLine(raw: raw, kind: .uri)
        line.kind = raw.content.first == UInt8(ascii: "#") ? .comment : .uri
        overlongKind = line.kind
        report(
            ParseDiagnostics.lineTooLong,
            "this line is longer than \(options.maximumLineLength) bytes; it is kept as it is but not read",
            on: line, column: 1)
        if line.kind == .uri { readURI(&line) }
        return line
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        let start = SourceLocation(path: path, line: 1, column: 1, offset: 0)
        if lineCount == 0 {
            emit(ParseDiagnostics.emptyPlaylist("the file is empty; a playlist starts with #EXTM3U", at: start))
        }
        if let earlier = pendingDuration { reportDurationWithoutURI(at: earlier) }
        for (id, entry) in suppressed.sorted(by: { $0.key < $1.key }) {
            onDiagnostic(
                entry.kind(
                    "\(entry.count) more findings of \(id) in this playlist are not listed",
                    at: lastLineStart ?? start))
        }
    }

    // MARK: Reporting

    private func reportDurationWithoutURI(at location: SourceLocation) {
        emit(ParseDiagnostics.durationWithoutURI("this #EXTINF has no segment URI after it", at: location))
    }

    private func report(_ problem: EncodingProblem, on line: PlaylistLine) {
        switch problem {
        case .controlCharacter(let index, let scalar):
            let code = "U+" + String(scalar, radix: 16, uppercase: true).leftPadded(to: 4)
            report(
                ParseDiagnostics.controlCharacter, "remove the control character \(code)", on: line,
                column: line.prefixLength + index + 1)
        case .tab(let index):
            report(
                ParseDiagnostics.tabCharacter, "replace the tab with a space, or remove it", on: line,
                column: line.prefixLength + index + 1)
        case .invalidUTF8(let index):
            report(
                ParseDiagnostics.invalidUTF8, "the bytes here are not UTF-8; re-encode the playlist as UTF-8",
                on: line, column: line.prefixLength + index + 1)
        }
    }

    private func report(_ issue: LineIssue, on line: PlaylistLine) {
        report(issue.kind, issue.message, on: line, column: line.prefixLength + issue.column)
    }

    private func report(_ kind: DiagnosticKind, _ message: String, on line: PlaylistLine, column: Int) {
        emit(kind(message, at: line.location(in: path, column: column)))
    }

    private func emit(_ diagnostic: Diagnostic) {
        switch diagnostic.severity {
        case .error: errorCount += 1
        case .warning: warningCount += 1
        case .info: break
        }
        let seen = findingsPerKind[diagnostic.id, default: 0] + 1
        findingsPerKind[diagnostic.id] = seen
        guard seen <= options.maximumDiagnosticsPerKind else {
            let kind = DiagnosticKind(
                id: diagnostic.id, severity: diagnostic.severity, summary: "", specSection: "")
            suppressed[diagnostic.id, default: (kind, 0)].count += 1
            return
        }
        onDiagnostic(diagnostic)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
