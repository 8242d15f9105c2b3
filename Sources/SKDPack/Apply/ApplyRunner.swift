import Glibc
import HLS
import SKDFiles
import SKDKeys
import SKDTemplate
import SKDValidation

/// Runs `apply` over packages of playlists: media playlists first, then their master.
public struct ApplyRunner: Sendable {
    public var options: ApplyOptions
    public var destination: ApplyDestination
    /// Where a playlist for standard output, and diffs, go.
    public var stream: StreamOutput?

    /// `stream` is needed for ``ApplyDestination/standardOutput`` and ``ApplyDestination/diff`` only.
    public init(options: ApplyOptions, destination: ApplyDestination, stream: StreamOutput? = nil) {
        precondition(stream != nil || (destination != .standardOutput && destination != .diff), "\(destination) needs a stream")
        self.options = options
        self.destination = destination
        self.stream = stream
    }

    /// Applies to one package and returns an outcome per playlist, in the order processed. I/O problems
    /// of one playlist become its outcome's diagnostics, never a stop. Written in place or to a directory,
    /// a package changes whole or not at all: if any of its playlists fails, none is written.
    public func run(_ package: PlaylistPackage) -> [PlaylistOutcome] {
        // A master whose renditions are named from the web server's root: its keys cannot all be rewritten,
        // nor its session keys held to them, so nothing of the title is (one finding, on the master).
        if let master = package.master, let first = package.unreadRootRelative.first {
            let count = package.unreadRootRelative.count
            var outcome = PlaylistOutcome(path: master.path, kind: .master)
            outcome.diagnostics.append(
                ApplyDiagnostics.rootRelativeTitle(
                    "this master names \(count == 1 ? "a playlist" : "\(count) playlists") from the web server's root (\(first)"
                        + (count > 1 ? ", …" : "") + "), which skdpack cannot read here: give \(options.variables.names[.root]) "
                        + "(the document root on this disk); the title is left as it was, whole",
                    at: SourceLocation(path: master.path, line: 1, column: 1, offset: 0)))
            return [outcome]
                + package.media.map { file in
                    var held = PlaylistOutcome(path: file.path, kind: .media)
                    held.diagnostics.append(
                        ApplyDiagnostics.titleFailed(
                            "not updated: \(master.path) of its title could not be; a title is changed whole or not at all",
                            at: SourceLocation(path: file.path, line: 1, column: 1, offset: 0)))
                    return held
                }
        }
        // Rewritten in place, a title is held from its first read to its last rename (``TitleLock``).
        var lock: TitleLock?
        if destination == .inPlace, let first = package.master ?? package.media.first {
            // A playlist given without its master is held to the master's session keys: its title's lock.
            let titlePath = package.listingMasters.first ?? first.path
            do {
                lock = try TitleLock.acquire(directory: AtomicFile.directory(of: titlePath), wait: options.titleLockWait)
            } catch {
                return (package.media + [package.master].compactMap { $0 }).map { file in
                    var outcome = PlaylistOutcome(path: file.path, kind: .unknown)
                    outcome.diagnostics.append(
                        ApplyDiagnostics.titleLocked(
                            "not updated: \(error)", at: SourceLocation(path: file.path, line: 1, column: 1, offset: 0)))
                    return outcome
                }
            }
        }
        defer { withExtendedLifetime(lock) {} }
        let diff: UnnamedFile?
        do {
            diff = destination == .diff ? try UnnamedFile(name: "the diff of \(package.key)") : nil
        } catch {
            return notRead(package, error)
        }
        let title = TitleWrite(inPlace: destination == .inPlace, diff: diff)
        var outcomes = applyAll(package, title: title)
        let failed = outcomes.filter(\.failed)
        if !failed.isEmpty {
            title.discard()
            // Named by the playlists that failed of themselves, not by a master held back by them.
            let causes = failed.filter { !$0.onlyFollowsTitle }.map(\.path)
            let named = causes.isEmpty ? failed.map(\.path) : causes
            let culprit = named[0] + (named.count > 1 ? " and \(named.count - 1) more" : "")
            markNotWritten(&outcomes, because: culprit, except: [])
        } else if let diff {
            // The title's hunks, now that it is known whole.
            do {
                try diff.copy(to: stream!.fd, path: stream!.name)
            } catch {
                return notRead(package, error)
            }
        } else if let failure = title.commit() {
            let path = outcomes[failure.outcome].path
            outcomes[failure.outcome].diagnostics.append(
                PackageDiagnostics.unreadable(failure.error.description, at: SourceLocation(path: path, line: 1, column: 1, offset: 0)))
            markNotWritten(&outcomes, because: path, except: failure.renamed)
        }
        return outcomes
    }

    /// Every playlist of `package` failed with `error` (its diff could not be held or shown).
    private func notRead(_ package: PlaylistPackage, _ error: IOError) -> [PlaylistOutcome] {
        (package.media + [package.master].compactMap { $0 }).map { file in
            var outcome = PlaylistOutcome(path: file.path, kind: .unknown)
            outcome.diagnostics.append(
                PackageDiagnostics.unreadable(error.description, at: SourceLocation(path: file.path, line: 1, column: 1, offset: 0)))
            return outcome
        }
    }

    /// Says, on each playlist of a title that would have been written and was not, which one stopped it:
    /// no summary or report counts it changed. With `--check` and `--diff` too, so that they count what the
    /// run would do (standard output, a playlist at a time, is not a title's).
    private func markNotWritten(_ outcomes: inout [PlaylistOutcome], because culprit: String, except renamed: Set<Int>) {
        guard destination != .standardOutput else { return }
        for index in outcomes.indices where !outcomes[index].failed && !renamed.contains(index) {
            guard outcomes[index].changed || (writesFiles && destination != .inPlace) else { continue }
            outcomes[index].diagnostics.append(
                ApplyDiagnostics.titleFailed(
                    "not updated: \(culprit) of its title could not be; a title is changed whole or not at all",
                    at: SourceLocation(path: outcomes[index].path, line: 1, column: 1, offset: 0)))
        }
    }

    /// Whether this destination writes files (in place, or a mirror), which a title commits together.
    private var writesFiles: Bool {
        switch destination {
        case .inPlace, .directory: true
        default: false
        }
    }

    /// Every playlist of `package`, media first, written to `title`'s temporary files where files are written.
    private func applyAll(_ package: PlaylistPackage, title: TitleWrite) -> [PlaylistOutcome] {
        var mediaOptions = options
        mediaOptions.collectsSessionKeys = package.master != nil || !package.listingMasters.isEmpty
        var outcomes: [PlaylistOutcome] = []
        // The title's key map, carried from rendition to rendition in the order its master lists them: a key
        // keeps its number in all of them, and no URI is given to two keys (``KeyMap``). Renditions given
        // without their master start from the map of the renditions beside them, as they are.
        var (titleKeys, besideRun) = package.master == nil ? siblingKeys(of: package) : (KeyMap(), [])
        for file in package.media {
            let outcome = applyMedia(
                file, options: mediaOptions, title: title, index: outcomes.count, package: package, titleKeys: titleKeys,
                besideRun: besideRun)
            if !outcome.failed { titleKeys = outcome.keyMap }
            outcomes.append(outcome)
        }
        guard let master = package.master else { return outcomes }
        var blocked = package.diagnostics
        for outcome in outcomes where outcome.failed {
            blocked.append(
                ApplyDiagnostics.mediaFailed(
                    "not updated: its media playlist \(outcome.path) has errors",
                    at: SourceLocation(path: master.path, line: 1, column: 1, offset: 0)))
        }
        if blocked.contains(where: { $0.severity == .error }) {
            var outcome = PlaylistOutcome(path: master.path, kind: .master)
            outcome.diagnostics = blocked
            outcomes.append(outcome)
            return outcomes
        }
        var wanted: [KeyAttributes] = []
        var seen: Set<KeyAttributes> = []
        for outcome in outcomes {
            for key in outcome.fairPlayKeys where seen.insert(key).inserted { wanted.append(key) }
        }
        // The session keys carry the media keys' URIs, and with them any secret of the media's own values.
        let secrets = outcomes.reduce(into: Set<Secret>()) { $0.formUnion($1.secretValues) }
        var outcome = applyMaster(
            master, wanted: wanted, keepsUnwanted: package.unreadMedia > 0, secrets: secrets, title: title, index: outcomes.count)
        outcome.secretValues = secrets
        outcome.redact(options.redaction.adding(secrets))
        outcome.diagnostics = package.diagnostics + outcome.diagnostics
        outcomes.append(outcome)
        return outcomes
    }

    /// The key map of the renditions beside the media playlists of `package`, given without their master:
    /// the other media playlists the masters that list them list, read as they are (``KeyUse``s where key
    /// truth or a KEYID tells the key). A rendition rewritten alone is held to it as to the rest of its title: one URI
    /// per key across every rendition. A rendition that cannot be read, or whose map is broken already, is
    /// validate's to report; what it does not tell is left out.
    private func siblingKeys(of package: PlaylistPackage) -> (KeyMap, Set<String>) {
        var map = KeyMap()
        var paths: Set<String> = []
        guard !package.listingMasters.isEmpty else { return (map, paths) }
        let given = package.media.map(\.path)
        // Read with the run's key truth (its CPIX documents, its init segments): the evidence the rendition
        // applied gets is the evidence its neighbours are noted with, and evidence of two kinds never meets.
        var reading = ValidationOptions()
        reading.keyTruth = options.keyTruth
        reading.checksMedia = options.keyTruth.kidFromMedia
        let runner = ValidationRunner(options: reading)
        for master in package.listingMasters {
            guard let title = PlaylistDiscovery().discover([master]).packages.first else { continue }
            let siblings = title.media.filter { file in !given.contains { Self.isSameFile($0, file.path) } }
            guard !siblings.isEmpty else { continue }
            var sibling = title
            sibling.media = siblings
            sibling.master = nil
            for playlist in runner.run(sibling).playlists {
                for use in playlist.keyUses {
                    guard let evidence = use.evidence else { continue }
                    _ = map.note(uri: use.digest, evidence: evidence, at: use.place)
                    paths.insert(use.place.playlist)
                }
            }
        }
        return (map, paths)
    }

    /// Whether two paths name one file (links, `.` and `..` resolved).
    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        PathComponents.isSameOrInside(first, second) && PathComponents.isSameOrInside(second, first)
    }

    /// A media playlist rewritten without the masters that list it (``PlaylistPackage/listingMasters``)
    /// keeps its title whole only while what they announce stays true: a FairPlay session key that names a
    /// key of this playlist must name it as rewritten. Otherwise the playlist is refused, as its title
    /// changes whole or not at all (the run given the master rewrites the session keys with it). Read
    /// before anything is written or shown; the message names no URI (another rendition's may hold a token).
    private func holdToSessionKeys(_ outcome: inout PlaylistOutcome, of file: PlaylistFile, package: PlaylistPackage) throws(IOError) {
        guard !package.listingMasters.isEmpty, outcome.changed else { return }
        let reader = MasterPlaylistApplier(options: options)
        // The masters' announcements first (small files, and most masters a pipeline writes first have
        // none): the playlist's own keys as they were are read again only when there is one to hold it to.
        // A master that cannot be read is not this run's to judge: validate reports it.
        let announcements = package.listingMasters.map { master in
            (master, (try? reader.fairPlayKeys(try FileDescriptorSource.open(path: master), path: master, tag: .sessionKey)) ?? [])
        }
        guard announcements.contains(where: { !$0.1.isEmpty }) else { return }
        let used = Set(try reader.fairPlayKeys(try FileDescriptorSource.open(path: file.path), path: file.path, tag: .key).map(\.value.uri))
        let rewritten = Set(outcome.fairPlayKeys)
        for (master, announced) in announcements {
            guard let stale = announced.first(where: { used.contains($0.value.uri) && !rewritten.contains($0.value) }) else { continue }
            outcome.diagnostics.append(
                ApplyDiagnostics.renditionAlone(
                    "\(file.path), rewritten alone, would no longer use the key this master announces here (the master lists "
                        + "it and is not part of this run): apply the title (this master or its folder), so that its session "
                        + "keys follow, or write the playlist to \(options.variables.names[.elsewhere]); it is left as it was",
                    at: SourceLocation(path: master, line: stale.line, column: 1, offset: 0)))
            return
        }
    }

    // MARK: Media playlists

    private func applyMedia(
        _ file: PlaylistFile, options: ApplyOptions, title: TitleWrite, index: Int, package: PlaylistPackage, titleKeys: KeyMap,
        besideRun: Set<String>
    ) -> PlaylistOutcome {
        let applier = MediaPlaylistApplier(
            options: options, tracks: package.tracks[file.path] ?? [], titleKeys: titleKeys, besideRun: besideRun)
        let identity = package.identity(of: file)
        return guarded(file) { () throws(IOError) -> PlaylistOutcome in
            switch destination {
            case .check:
                var discard = DiscardEmitter()
                let source = try FileDescriptorSource.openForStreaming(path: file.path)
                defer { FileDescriptorSource.finish(source) }
                var outcome = try applier.pass(source, identity: identity, into: &discard).outcome
                try holdToSessionKeys(&outcome, of: file, package: package)
                return outcome
            case .diff:
                var discard = DiscardEmitter()
                var first = try applier.pass(try FileDescriptorSource.open(path: file.path), identity: identity, into: &discard)
                try holdToSessionKeys(&first.outcome, of: file, package: package)
                guard !first.outcome.failed, first.outcome.changed else { return first.outcome }
                var plan = first.followUp ?? MediaPlaylistApplier.Plan()
                if first.versionDigitOffset != nil { plan.raiseVersion = true }
                var emitter = DiffEmitter(
                    sink: OutputSink(fd: title.diff!.fd, path: title.diff!.name), path: file.relativePath,
                    redaction: options.redaction.adding(first.outcome.secretValues))
                let second = try applier.pass(
                    try FileDescriptorSource.open(path: file.path), identity: identity, plan: plan, into: &emitter)
                try emitter.finish()
                return second.outcome
            case .standardOutput where StreamOutputFile(stream!) != nil:
                return try writeToStreamOutputFile(file, identity, applier)
            case .standardOutput, .inPlace, .directory:
                let version = FileVersion(of: file.path)
                let output = try AtomicFile(target: target(of: file))
                var result = try write(file, identity, plan: MediaPlaylistApplier.Plan(), to: output, applier)
                guard !result.outcome.failed else { return result.outcome }
                if let followUp = result.followUp {
                    try output.restart()
                    result = try write(file, identity, plan: followUp, to: output, applier)
                    guard !result.outcome.failed else { return result.outcome }
                } else if let offset = result.versionDigitOffset {
                    try output.patch(KeyFormatVersion.digit, at: offset)
                }
                var outcome = result.outcome
                try validate(output, file: file, changed: outcome.changed, into: &outcome)
                try holdToSessionKeys(&outcome, of: file, package: package)
                guard !outcome.failed else { return outcome }
                try finish(output, file: file, changed: outcome.changed, read: version, title: title, index: index)
                return outcome
            }
        }
    }

    /// Standard output redirected to a regular file: written directly, and cut back to where it started if
    /// the playlist turns out to have an error, so a failed run still leaves nothing behind.
    private func writeToStreamOutputFile(
        _ file: PlaylistFile, _ identity: PlaylistIdentity, _ applier: MediaPlaylistApplier
    ) throws(IOError) -> PlaylistOutcome {
        let output = StreamOutputFile(stream!)!
        var plan = MediaPlaylistApplier.Plan()
        while true {
            let source = try FileDescriptorSource.openForStreaming(path: file.path)
            defer { FileDescriptorSource.finish(source) }
            let background = FileDescriptorSource.isLarge(source)
            var emitter = SinkEmitter(sink: OutputSink(fd: stream!.fd, path: stream!.name, background: background))
            let result = try applier.pass(source, identity: identity, plan: plan, into: &emitter)
            try emitter.sink.flush()
            if result.outcome.failed {
                try output.truncate()
                return result.outcome
            }
            if let followUp = result.followUp, followUp != plan {
                try output.truncate()
                plan = followUp
                continue
            }
            if let offset = result.versionDigitOffset { try output.patch(KeyFormatVersion.digit, at: offset) }
            return result.outcome
        }
    }

    private func write(
        _ file: PlaylistFile, _ identity: PlaylistIdentity, plan: MediaPlaylistApplier.Plan, to output: AtomicFile,
        _ applier: MediaPlaylistApplier
    ) throws(IOError) -> MediaPlaylistApplier.PassResult {
        let source = try FileDescriptorSource.openForStreaming(path: file.path)
        defer { FileDescriptorSource.finish(source) }
        let background = FileDescriptorSource.isLarge(source)
        var emitter = SinkEmitter(sink: OutputSink(fd: output.fd, path: output.target, background: background))
        let result = try applier.pass(source, identity: identity, plan: plan, into: &emitter)
        try emitter.sink.flush()
        return result
    }

    // MARK: Masters

    private func applyMaster(
        _ file: PlaylistFile, wanted: [KeyAttributes], keepsUnwanted: Bool, secrets: Set<Secret>, title: TitleWrite,
        index: Int
    ) -> PlaylistOutcome {
        let applier = MasterPlaylistApplier(options: options)
        return guarded(file) { () throws(IOError) -> PlaylistOutcome in
            let version = FileVersion(of: file.path)
            let survey = try applier.survey(
                try FileDescriptorSource.open(path: file.path), path: file.path, wanted: wanted, keepsUnwanted: keepsUnwanted)
            guard !survey.outcome.failed else { return survey.outcome }
            switch destination {
            case .check:
                break
            case .diff:
                guard survey.outcome.changed else { break }
                var emitter = DiffEmitter(
                    sink: OutputSink(fd: title.diff!.fd, path: title.diff!.name), path: file.relativePath,
                    redaction: options.redaction.adding(secrets))
                try applier.write(try FileDescriptorSource.open(path: file.path), path: file.path, survey: survey, into: &emitter)
                try emitter.finish()
            case .standardOutput, .inPlace, .directory:
                let output = try AtomicFile(target: target(of: file))
                var emitter = SinkEmitter(sink: OutputSink(fd: output.fd, path: output.target))
                try applier.write(try FileDescriptorSource.open(path: file.path), path: file.path, survey: survey, into: &emitter)
                try emitter.sink.flush()
                var outcome = survey.outcome
                try validate(output, file: file, changed: outcome.changed, into: &outcome)
                guard !outcome.failed else { return outcome }
                try finish(output, file: file, changed: outcome.changed, read: version, title: title, index: index)
                return outcome
            }
            return survey.outcome
        }
    }

    /// With ``ApplyOptions/validatesWrites``: the errors `validate` finds in what was written become the
    /// outcome's, so the playlist (and its title) is left as it was. A playlist apply did not change is not
    /// written, so not looked at.
    private func validate(_ output: AtomicFile, file: PlaylistFile, changed: Bool, into outcome: inout PlaylistOutcome) throws(IOError) {
        guard options.validatesWrites, changed else { return }
        let validation = try PlaylistValidator.validate(try output.readBack(), path: file.path, options: options.writeValidation)
        let errors = validation.diagnostics.filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        outcome.diagnostics += errors.map { error in
            var error = error
            error.message = options.redaction.redact("as written, validate would find: \(error.message); the playlist is left as it was")
            return error
        }
    }

    // MARK: Files

    /// Where a playlist's result goes: its own place, its mirror under `--output`, or a temporary file
    /// (for standard output).
    private func target(of file: PlaylistFile) throws(IOError) -> String {
        switch destination {
        case .directory(let root):
            let target = root + "/" + file.relativePath
            try AtomicFile.makeDirectories(AtomicFile.directory(of: target))
            return target
        case .standardOutput:
            return stream!.temporaryDirectory + "/skdpack-stdout.m3u8"
        default:
            // In place through a symbolic link (--follow-symlinks) means in the file it points at: renaming
            // over the link itself would replace the link with a copy. (Only the last component matters:
            // a file renamed inside a linked directory stays in it.)
            guard file.isLink else { return file.path }
            guard let resolved = realpath(file.path, nil) else { return file.path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }

    /// Hands a finished result on: copied to the stream at once, or staged with its title (a mirror always,
    /// in place only if it changed) to be renamed when the whole title is ready.
    private func finish(
        _ output: AtomicFile, file: PlaylistFile, changed: Bool, read version: FileVersion?, title: TitleWrite, index: Int
    ) throws(IOError) {
        switch destination {
        case .standardOutput:
            try output.copy(to: stream!.fd, path: stream!.name)
        case .directory:
            title.stage(output, for: file, read: version, outcome: index)
        case .inPlace:
            guard changed else {
                output.discard()
                return
            }
            title.stage(output, for: file, read: version, outcome: index)
        case .check, .diff:
            output.discard()
        }
    }

    /// Runs `body`; an I/O failure becomes the playlist's outcome, never a stop of the batch.
    private func guarded(_ file: PlaylistFile, _ body: () throws(IOError) -> PlaylistOutcome) -> PlaylistOutcome {
        do {
            return try body()
        } catch {
            var outcome = PlaylistOutcome(path: file.path, kind: .unknown)
            outcome.diagnostics.append(
                PackageDiagnostics.unreadable(
                    error.description, at: SourceLocation(path: file.path, line: 1, column: 1, offset: 0)))
            return outcome
        }
    }

}
