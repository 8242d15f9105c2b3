import HLS
import SKDKeys
import SKDReportModel
import SKDTemplate
import SKDValidation

/// Keeps a master playlist's FairPlay `EXT-X-SESSION-KEY`s equal to the FairPlay keys its media
/// playlists use (README "What apply does", rule 6): stale ones go, missing ones are added when the template or
/// `--session-keys` asks, and where one replaces one it is rewritten in place. Other systems' session
/// keys, and every other byte, stay as they were.
public struct MasterPlaylistApplier: Sendable {
    public let options: ApplyOptions

    public init(options: ApplyOptions) { self.options = options }

    public struct Survey: Sendable {
        public var outcome: PlaylistOutcome
        /// Session key lines to rewrite, with their new content.
        var rewrites: [Int: [UInt8]] = [:]
        var removals: Set<Int> = []
        /// Session keys to add, after line `insertAfter`, or before line `insertBefore`.
        var additions: [[UInt8]] = []
        var insertAfter: Int?
        var insertBefore: Int?
        var versionLine: Int?
        var raiseVersion = false
        var insertVersion = false
    }

    /// The FairPlay keys of `tag` (`.sessionKey`: what a master announces; `.key`: what a media playlist
    /// uses) in the playlist `source` holds, each with its line.
    public func fairPlayKeys(_ source: any ByteSource, path: String, tag: TagName) throws(IOError) -> [(line: Int, value: KeyAttributes)] {
        let reader = PlaylistReader(source: source, path: path, options: options.readerOptions)
        var keys: [(line: Int, value: KeyAttributes)] = []
        while let line = try reader.next() {
            guard line.kind == .tag(tag), let key = Self.fairPlayKey(line, reader) else { continue }
            keys.append((line.raw.number, key.value))
        }
        return keys
    }

    /// The FairPlay key of a key or session key line (its URI with the playlist's `{$variables}` put in),
    /// and the line's attributes; `nil` for another system's.
    private static func fairPlayKey(
        _ line: PlaylistLine, _ reader: PlaylistReader
    ) -> (value: KeyAttributes, attributes: AttributeList?)? {
        let parsed = TagParser.parse(line.content).tag
        guard let key = KeyTag(parsed), FairPlay.isFairPlayKey(key) else { return nil }
        let uri = key.uri.map { reader.variables.substitute($0).text } ?? ""
        let value = KeyAttributes(
            method: key.method, uri: uri, keyFormat: key.keyFormat, keyFormatVersions: key.keyFormatVersions,
            iv: parsed.attributes?["IV"]?.text)
        return (value, parsed.attributes)
    }

    /// The run's redaction, with the secrets of `uri` if it is an old URI of a form with a secret.
    private func redaction(for uri: String) -> Redaction {
        options.redaction.adding(Set(options.derived.oldSecrets(options).secrets(in: uri)))
    }

    /// `wanted`: the FairPlay keys of the media playlists, in the order they were found.
    /// `keepsUnwanted`: some of the master's playlists were not read (remote, root-relative, missing, or
    /// the master came from standard input); a session key none of the others wants may be theirs, so it
    /// is neither rewritten nor removed.
    public func survey(
        _ source: any ByteSource, path: String, wanted: [KeyAttributes], keepsUnwanted: Bool = false
    ) throws(IOError) -> Survey {
        let reader = PlaylistReader(source: source, path: path, options: options.readerOptions)
        var survey = Survey(outcome: PlaylistOutcome(path: path, kind: .unknown))
        var diagnostics: [Diagnostic] = []
        let policy = options.findingPolicy
        reader.onDiagnostic = { if policy.keeps($0.id) { diagnostics.append($0) } }
        var existing: [(line: Int, value: KeyAttributes, text: String, attributes: AttributeList?)] = []
        var lastSessionKeyLine: Int?
        var firstVariantLine: Int?
        var versionText: String?
        while let line = try reader.next() {
            switch line.kind {
            case .tag(.sessionKey):
                lastSessionKeyLine = line.raw.number
                guard let key = Self.fairPlayKey(line, reader) else { continue }
                existing.append((line.raw.number, key.value, line.text, key.attributes))
            case .tag(.version):
                survey.versionLine = line.raw.number
                versionText = line.text
            case .tag(.media), .tag(.streamInf), .tag(.iFrameStreamInf), .tag(.sessionData), .tag(.contentSteering):
                if firstVariantLine == nil { firstVariantLine = line.raw.number }
            default:
                break
            }
        }
        survey.outcome.kind = reader.kind
        let wantedSet = Set(wanted)
        let existingSet = Set(existing.map(\.value))
        let stale = keepsUnwanted ? [] : existing.filter { !wantedSet.contains($0.value) }
        // A session key kept for playlists not read here must still be one the template makes: validate
        // with the template would reject the master otherwise, so it is not written.
        if keepsUnwanted, let foreign = existing.first(where: { !wantedSet.contains($0.value) && !options.makes($0.value.uri) }) {
            survey.outcome.diagnostics =
                diagnostics + [
                    TemplateMatchRule.kind(
                        redaction(for: foreign.value.uri).redact(
                            "this FairPlay session key (\(foreign.value.uri)) is not one the template \(options.template.definition.name) makes, "
                                + "and the playlists that may use it are not read here; the master is left as it was"),
                        at: SourceLocation(path: path, line: foreign.line, column: 1, offset: 0))
                ]
            return survey
        }
        var missing = wanted.filter { !existingSet.contains($0) }
        let redaction = options.redaction
        // Every line is made here, through the checked writer, so that a value that cannot be written fails
        // the master before anything is written.
        func unwritable(_ error: UnwritableAttributeValue, line: Int) -> Survey {
            survey.outcome.diagnostics =
                diagnostics + [
                    ApplyDiagnostics.unwritable(
                        redaction.redact("\(error); the master is left as it was"),
                        at: SourceLocation(path: path, line: line, column: 1, offset: 0))
                ]
            return survey
        }
        for (old, new) in zip(stale, missing) {
            let content: [UInt8]
            do {
                content = try rewritten(old.attributes, to: new)
            } catch {
                return unwritable(error, line: old.line)
            }
            survey.rewrites[old.line] = content
            survey.outcome.record(
                ApplyChange(
                    line: old.line, tag: "EXT-X-SESSION-KEY", action: .rewritten, before: redaction.redacted(old.text),
                    after: redaction.redacted(String(decoding: content, as: UTF8.self))), keeping: options.keepsChangeDetails)
        }
        for old in stale.dropFirst(min(stale.count, missing.count)) {
            survey.removals.insert(old.line)
            survey.outcome.record(
                ApplyChange(line: old.line, tag: "EXT-X-SESSION-KEY", action: .removed, before: redaction.redacted(old.text), after: nil),
                keeping: options.keepsChangeDetails)
        }
        missing.removeFirst(min(stale.count, missing.count))
        if !missing.isEmpty, options.template.sessionKeys || options.sessionKeys {
            if let last = existing.last?.line ?? lastSessionKeyLine {
                survey.insertAfter = last
            } else if let first = firstVariantLine {
                survey.insertBefore = first
            } else {
                survey.insertAfter = reader.lineCount
            }
            let anchor = survey.insertAfter ?? (survey.insertBefore! - 1)
            for value in missing {
                let content: [UInt8]
                do {
                    content = try value.line(.sessionKey)
                } catch {
                    return unwritable(error, line: anchor)
                }
                survey.additions.append(content)
                survey.outcome.record(
                    ApplyChange(
                        line: anchor, tag: "EXT-X-SESSION-KEY", action: .inserted, before: nil,
                        after: redaction.redacted(String(decoding: content, as: UTF8.self))), keeping: options.keepsChangeDetails)
            }
        }
        let writesKeyFormat = !survey.rewrites.isEmpty || !survey.additions.isEmpty || existing.count > survey.removals.count
        if writesKeyFormat {
            let current = survey.versionLine.map { (line: $0, text: versionText ?? "") }
            switch KeyFormatVersion.change(of: current, in: &survey.outcome, keeping: options.keepsChangeDetails) {
            case .none: break
            case .raise: survey.raiseVersion = true
            case .insert: survey.insertVersion = true
            }
        }
        survey.outcome.sortChanges()
        // A master that announces its FairPlay keys (session keys) but not the ones its media use besides
        // (key rotation, keys per track), where session keys are not added: said here, as validate would.
        if !missing.isEmpty, !existing.isEmpty, survey.additions.isEmpty {
            let names = options.variables.names
            diagnostics.append(
                SessionKeyMissingRule.kind(
                    "this master announces \(existing.count) FairPlay session key\(existing.count == 1 ? "" : "s"), and its media use "
                        + "\(missing.count) FairPlay key\(missing.count == 1 ? "" : "s") it does not announce (key rotation, or keys per "
                        + "track): a player fetches their licences only when it reaches them; \(names[.sessionKeys]) announces every one",
                    at: SourceLocation(path: path, line: existing.last!.line, column: 1, offset: 0)))
        }
        survey.outcome.diagnostics = diagnostics
        survey.outcome.fairPlayKeys = wanted
        return survey
    }

    func write<Emitter: PlaylistEmitter & ~Copyable>(
        _ source: any ByteSource, path: String, survey: Survey, into emitter: inout Emitter
    ) throws(IOError) {
        let reader = PlaylistReader(source: source, path: path, options: options.readerOptions)
        var lastTerminator = LineTerminator.lf
        while let line = try reader.next() {
            let number = line.raw.number
            if line.raw.terminator != .none { lastTerminator = line.raw.terminator }
            if survey.insertBefore == number {
                for content in survey.additions {
                    try emitter.insert(content, terminator: lastTerminator, afterUnterminated: false)
                }
            }
            if let content = survey.rewrites[number] {
                try emitter.replace(Array(line.content), with: content, terminator: line.raw.terminator)
            } else if survey.removals.contains(number) {
                // With its CR, for a diff of a CRLF master (emitters that write files leave the line out).
                try emitter.remove(Array(line.content) + (line.raw.terminator == .crlf ? [0x0D] : []))
            } else if survey.raiseVersion, survey.versionLine == number {
                try emitter.replace(Array(line.content), with: KeyFormatVersion.line, terminator: line.raw.terminator)
            } else {
                try emitter.keep(line.raw.bytes, firstLine: number, lineCount: line.raw.part.endsLine ? 1 : 0)
            }
            guard line.raw.part.endsLine else { continue }
            let unterminated = line.raw.terminator == .none
            if number == 1, survey.insertVersion {
                try emitter.insert(KeyFormatVersion.line, terminator: lastTerminator, afterUnterminated: unterminated)
            }
            if survey.insertAfter == number {
                for content in survey.additions {
                    try emitter.insert(content, terminator: lastTerminator, afterUnterminated: unterminated)
                }
            }
        }
    }

    /// The session key line with the attributes of `value`, its attribute order and other attributes kept.
    private func rewritten(_ attributes: AttributeList?, to value: KeyAttributes) throws(UnwritableAttributeValue) -> [UInt8] {
        guard let attributes else { return try value.line(.sessionKey) }
        var editor = TagLineEditor(line: attributes.line, attributes: attributes)
        try value.edit(&editor)
        return editor.render()
    }
}
