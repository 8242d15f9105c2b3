import HLS
import SKDTemplate

/// Applies a template to one media playlist (DESIGN "What apply does", rules 1 to 5).
///
/// Two passes over the input, each streaming, so memory never depends on the number of segments:
/// ``survey(_:identity:)`` reads the playlist and decides everything (which keys change, where keys are
/// inserted, whether EXT-X-VERSION must rise, and whether anything is wrong, in which case nothing is
/// written); ``write(_:identity:survey:into:)`` reads it again and writes the result, passing every
/// untouched byte through as it was.
public struct MediaPlaylistApplier: Sendable {
    public let options: ApplyOptions

    public init(options: ApplyOptions) { self.options = options }

    /// What the first pass found and decided.
    public struct Survey: Sendable {
        public var outcome: PlaylistOutcome
        /// Lines after which a FairPlay key is inserted, with the key period's index.
        var insertions: [Int: Int] = [:]
        /// The KEYID of key periods whose FairPlay key comes before the key that carries it.
        var lateKeyIDs: [Int: String] = [:]
        /// For clear media with --assume-encrypted: the line (and its offset) before which the key goes.
        var clearInsertion: (line: Int, offset: Int)?
        var versionLine: Int?
        var raiseVersion = false
        var insertVersion = false
        var changesAnything: Bool { !outcome.changes.isEmpty }
    }

    // MARK: Pass 1

    public func survey(_ source: any ByteSource, identity: PlaylistIdentity) throws(IOError) -> Survey {
        let reader = PlaylistReader(source: source, path: identity.path, options: options.readerOptions)
        var survey = Survey(outcome: PlaylistOutcome(path: identity.path, kind: .unknown))
        var diagnostics: [Diagnostic] = []
        reader.onDiagnostic = { diagnostics.append($0) }
        let playlistValues = options.variables.playlistValues(for: identity)
        var periods = KeyPeriods()
        var fairPlayInGroup: [(line: Int, key: KeyLine, kidKnown: Bool)] = []
        var firstSegmentTag: (line: Int, offset: Int)?
        var versionText: String?
        var writesFairPlay = false
        var seenKeys: Set<SessionKeyValue> = []

        func report(_ kind: DiagnosticKind, _ message: String, line: Int) {
            diagnostics.append(kind(options.redaction.redact(message), at: SourceLocation(path: identity.path, line: line, column: 1, offset: 0)))
        }
        func useKey(_ key: SessionKeyValue) {
            writesFairPlay = true
            if seenKeys.insert(key).inserted { survey.outcome.fairPlayKeys.append(key) }
        }
        func endGroup() {
            guard periods.inGroup else { return }
            for (line, key, kidKnown) in fairPlayInGroup {
                if !kidKnown, let kid = periods.kid { survey.lateKeyIDs[periods.index] = kid }
                guard let uri = render(key, index: periods.index, kid: periods.kid, line: line, values: playlistValues, report: report) else { continue }
                let original = key.attributes.line
                let content = rewrittenContent(key, uri: uri)
                useKey(sessionKey(key, uri: uri))
                if content != original {
                    survey.outcome.changes.append(change(line: line, tag: "EXT-X-KEY", .rewritten, before: original, after: content))
                }
                if key.tag.uri.map(VariableScope.mayReference) == true {
                    report(ApplyDiagnostics.literalAfterDefine, "the key URI used {$…} references; it is now written as the literal \(uri)", line: line)
                }
            }
            fairPlayInGroup = []
            let inForce = reader.keysInForce
            if !inForce.contains(where: { FairPlay.isFairPlayKey($0.key) }), !inForce.isEmpty {
                if let unusable = inForce.first(where: { $0.key.method != FairPlay.method }) {
                    report(
                        ApplyDiagnostics.unusableMethod,
                        "key period \(periods.index) is encrypted with METHOD=\(unusable.key.method) "
                            + "(KEYFORMAT \(unusable.key.keyFormat), line \(unusable.line)): FairPlay decrypts SAMPLE-AES only, "
                            + "so no FairPlay key can be added", line: periods.lastKeyLine)
                } else if let uri = render(nil, index: periods.index, kid: periods.kid, line: periods.lastKeyLine, values: playlistValues, report: report) {
                    survey.insertions[periods.lastKeyLine] = periods.index
                    let content = insertedContent(uri: uri)
                    useKey(insertedSessionKey(uri: uri))
                    survey.outcome.changes.append(change(line: periods.lastKeyLine, tag: "EXT-X-KEY", .inserted, before: nil, after: content))
                }
            }
            periods.end()
        }

        while true {
            let item = reader.segmentCount == 0 ? try reader.next().map(PlaylistItem.line) : try reader.nextItem()
            guard let item else { break }
            if periods.inGroup, reader.segmentCount > periods.segmentsAtStart { endGroup() }
            guard case .line(let line) = item else { continue }
            switch line.kind {
            case .tag(.key):
                guard let key = KeyLine(content: line.content, variables: reader.variables) else { continue }
                periods.note(key, line: line.raw.number, segments: reader.segmentCount)
                if key.isFairPlay {
                    if key.methodIsFairPlayCompatible {
                        fairPlayInGroup.append((line.raw.number, key, periods.kid != nil))
                    } else {
                        report(
                            ApplyDiagnostics.unusableMethod,
                            "this FairPlay key has METHOD=\(key.tag.method): FairPlay decrypts SAMPLE-AES only; the key is left as it is",
                            line: line.raw.number)
                    }
                }
            case .tag(.version):
                survey.versionLine = line.raw.number
                versionText = line.text
            case .tag(let name?) where name.scope == .mediaSegment && name != .map && reader.segmentCount == 0:
                if firstSegmentTag == nil { firstSegmentTag = (line.raw.number, line.raw.offset) }
            case .uri where reader.segmentCount == 1 && firstSegmentTag == nil:
                firstSegmentTag = (line.raw.number, line.raw.offset)
            default:
                break
            }
        }
        endGroup()
        survey.outcome.kind = reader.kind

        if !periods.sawKeys, reader.segmentCount > 0, let first = firstSegmentTag {
            if options.assumeEncrypted {
                if let uri = render(nil, index: 0, kid: nil, line: first.line, values: playlistValues, report: report) {
                    survey.clearInsertion = first
                    useKey(insertedSessionKey(uri: uri))
                    survey.outcome.changes.append(
                        change(line: first.line - 1, tag: "EXT-X-KEY", .inserted, before: nil, after: insertedContent(uri: uri)))
                }
            } else {
                report(
                    ApplyDiagnostics.clearPlaylist,
                    "no segment of this playlist is encrypted; no FairPlay key is added (give --assume-encrypted if they are)",
                    line: first.line)
            }
        }
        if writesFairPlay {
            let current = versionText.flatMap { UInt64($0.dropFirst("#EXT-X-VERSION:".count)) }
            if let line = survey.versionLine {
                if let current, current < 5 {
                    survey.raiseVersion = true
                    survey.outcome.changes.append(
                        ApplyChange(line: line, tag: "EXT-X-VERSION", action: .rewritten, before: versionText, after: "#EXT-X-VERSION:5"))
                }
            } else {
                survey.insertVersion = true
                survey.outcome.changes.append(
                    ApplyChange(line: 1, tag: "EXT-X-VERSION", action: .inserted, before: nil, after: "#EXT-X-VERSION:5"))
            }
        }
        survey.outcome.changes.sort { ($0.line, $0.action == .inserted ? 1 : 0) < ($1.line, $1.action == .inserted ? 1 : 0) }
        survey.outcome.diagnostics = diagnostics
        return survey
    }

    // MARK: Pass 2

    /// Writes the playlist as the survey decided. Call only for a survey without errors.
    func write<Emitter: PlaylistEmitter & ~Copyable>(
        _ source: any ByteSource, identity: PlaylistIdentity, survey: Survey, into emitter: inout Emitter
    ) throws(IOError) {
        let reader = PlaylistReader(source: source, path: identity.path, options: options.readerOptions)
        let playlistValues = options.variables.playlistValues(for: identity)
        var periods = KeyPeriods()
        var lastTerminator = LineTerminator.lf
        let ignore: (DiagnosticKind, String, Int) -> Void = { _, _, _ in }

        while true {
            let item = reader.segmentCount == 0 ? try reader.next().map(PlaylistItem.line) : try reader.nextItem()
            guard let item else { break }
            if periods.inGroup, reader.segmentCount > periods.segmentsAtStart { periods.end() }
            switch item {
            case .run(let run):
                // Runs start after the first segment, so after any insertion point of clear media.
                try emitter.keep(run.bytes, firstLine: run.firstLine, lineCount: run.lineCount)
                continue
            case .line(let line):
                let number = line.raw.number
                if line.raw.terminator != .none { lastTerminator = line.raw.terminator }
                if survey.clearInsertion?.line == number, line.raw.part.endsLine || line.raw.part == .overlongHead {
                    try insertClearKey(into: &emitter, terminator: lastTerminator, values: playlistValues)
                }
                switch line.kind {
                case .tag(.key):
                    guard let key = KeyLine(content: line.content, variables: reader.variables) else {
                        try emitter.keep(line.raw.bytes, firstLine: number, lineCount: 1)
                        break
                    }
                    periods.note(key, line: number, segments: reader.segmentCount)
                    let kid = periods.kid ?? survey.lateKeyIDs[periods.index]
                    if key.isFairPlay, key.methodIsFairPlayCompatible,
                        let uri = render(key, index: periods.index, kid: kid, line: number, values: playlistValues, report: ignore)
                    {
                        let content = rewrittenContent(key, uri: uri)
                        if content != key.attributes.line {
                            try emitter.replace(line.raw, with: content)
                        } else {
                            try emitter.keep(line.raw.bytes, firstLine: number, lineCount: 1)
                        }
                    } else {
                        try emitter.keep(line.raw.bytes, firstLine: number, lineCount: 1)
                    }
                case .tag(.version) where survey.raiseVersion && survey.versionLine == number:
                    try emitter.replace(line.raw, with: Array("#EXT-X-VERSION:5".utf8))
                default:
                    try emitter.keep(line.raw.bytes, firstLine: number, lineCount: line.raw.part.endsLine ? 1 : 0)
                }
                guard line.raw.part.endsLine else { continue }
                let unterminated = line.raw.terminator == .none
                if number == 1, survey.insertVersion {
                    try emitter.insert(Array("#EXT-X-VERSION:5".utf8), terminator: lastTerminator, afterUnterminated: unterminated)
                }
                if let index = survey.insertions[number],
                    let uri = render(nil, index: index, kid: periods.kid, line: number, values: playlistValues, report: ignore)
                {
                    try emitter.insert(insertedContent(uri: uri), terminator: lastTerminator, afterUnterminated: unterminated)
                }
            }
        }
    }

    private func insertClearKey<Emitter: PlaylistEmitter & ~Copyable>(
        into emitter: inout Emitter, terminator: LineTerminator, values: [String: TemplateValue]
    ) throws(IOError) {
        let ignore: (DiagnosticKind, String, Int) -> Void = { _, _, _ in }
        guard let uri = render(nil, index: 0, kid: nil, line: 0, values: values, report: ignore) else { return }
        try emitter.insert(insertedContent(uri: uri), terminator: terminator, afterUnterminated: false)
    }

    // MARK: Keys

    /// The URI for a key (`key` is the existing FairPlay key, `nil` for an inserted one), or `nil` after
    /// reporting why it cannot be rendered.
    private func render(
        _ key: KeyLine?, index: Int, kid: String?, line: Int, values playlistValues: [String: TemplateValue],
        report: (DiagnosticKind, String, Int) -> Void
    ) -> String? {
        let oldURI = key?.resolvedURI
        if let oldURI, let match = options.variables.match, match.groups(in: oldURI) == nil {
            report(
                ApplyDiagnostics.matchFailed,
                "the key URI \(oldURI) does not match --match \(match.text); the playlist is left as it was", line)
            return nil
        }
        let values = options.variables.keyValues(playlist: playlistValues, keyIndex: index, kid: kid, oldURI: oldURI, line: line)
        do {
            return try options.template.renderer.render(values)
        } catch {
            report(ApplyDiagnostics.renderFailed, error.message + "; the playlist is left as it was", line)
            return nil
        }
    }

    /// The key line with its URI (and the METHOD and KEYFORMATVERSIONS the template sets) changed, every
    /// other byte as it was.
    private func rewrittenContent(_ key: KeyLine, uri: String) -> [UInt8] {
        var editor = TagLineEditor(line: key.attributes.line, attributes: key.attributes)
        // The renderer only makes URI characters, so these cannot throw; a refusal keeps the line as it was.
        do {
            if key.tag.uri != uri { try editor.setQuotedString("URI", uri) }
            if let method = options.template.method, method != key.tag.method { try editor.setUnquoted("METHOD", method) }
            if let versions = options.template.keyFormatVersions, versions != key.tag.keyFormatVersions {
                try editor.setQuotedString("KEYFORMATVERSIONS", versions)
            }
        } catch {
            return key.attributes.line
        }
        return editor.hasChanges ? editor.render() : key.attributes.line
    }

    /// A new FairPlay key, exactly as DESIGN states: METHOD, URI, (IV), KEYFORMAT, KEYFORMATVERSIONS.
    func insertedContent(uri: String) -> [UInt8] {
        let template = options.template
        var text = "#EXT-X-KEY:METHOD=\(template.method ?? FairPlay.method),URI=\"\(uri)\""
        if let iv = template.iv { text += ",IV=\(iv)" }
        text += ",KEYFORMAT=\"\(template.keyFormat)\",KEYFORMATVERSIONS=\"\(template.keyFormatVersions ?? FairPlay.keyFormatVersions)\""
        return Array(text.utf8)
    }

    private func sessionKey(_ key: KeyLine, uri: String) -> SessionKeyValue {
        SessionKeyValue(
            method: options.template.method ?? key.tag.method, uri: uri, keyFormat: key.tag.keyFormat,
            keyFormatVersions: options.template.keyFormatVersions ?? key.tag.keyFormatVersions,
            iv: key.attributes["IV"]?.text)
    }

    private func insertedSessionKey(uri: String) -> SessionKeyValue {
        SessionKeyValue(
            method: options.template.method ?? FairPlay.method, uri: uri, keyFormat: options.template.keyFormat,
            keyFormatVersions: options.template.keyFormatVersions ?? FairPlay.keyFormatVersions, iv: options.template.iv)
    }

    private func change(line: Int, tag: String, _ action: ApplyChange.Action, before: [UInt8]?, after: [UInt8]?) -> ApplyChange {
        let redaction = options.redaction
        return ApplyChange(
            line: line, tag: tag, action: action,
            before: before.map { redaction.redact(String(decoding: $0, as: UTF8.self)) },
            after: after.map { redaction.redact(String(decoding: $0, as: UTF8.self)) })
    }
}

/// Key periods as `apply` counts them: the keys between two segments form a group, and the group starts
/// key period number `index` (the `key_index` variable).
struct KeyPeriods {
    private(set) var index = -1
    private(set) var inGroup = false
    private(set) var sawKeys = false
    /// The KEYID of another system's key in the group (the `kid` variable).
    private(set) var kid: String?
    private(set) var lastKeyLine = 0
    /// The number of segments read when the group started: once it grows, the group is over.
    private(set) var segmentsAtStart = 0

    mutating func note(_ key: KeyLine, line: Int, segments: Int) {
        if !inGroup {
            inGroup = true
            index += 1
            kid = nil
            segmentsAtStart = segments
        }
        sawKeys = true
        lastKeyLine = line
        if !key.isFairPlay, kid == nil, let keyID = key.kid { kid = keyID }
    }

    mutating func end() { inGroup = false }
}
