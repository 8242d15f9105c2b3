import Glibc
import HLS

/// Where `apply` puts its results.
public enum ApplyDestination: Sendable, Equatable {
    /// The one playlist given, to standard output; nothing at all if it has an error.
    case standardOutput
    /// Each changed file replaced atomically; unchanged files not touched.
    case inPlace
    /// Every processed playlist written under this directory at its path relative to its input.
    case directory(String)
    /// Nothing written: say what would change (exit 1 if anything would).
    case check
    /// A unified diff of what would change, to standard output; nothing written.
    case diff
}

/// Runs `apply` over packages of playlists: media playlists first, then their master.
public struct ApplyRunner: Sendable {
    public var options: ApplyOptions
    public var destination: ApplyDestination

    public init(options: ApplyOptions, destination: ApplyDestination) {
        self.options = options
        self.destination = destination
    }

    /// Applies to one package and returns an outcome per playlist, in the order processed. I/O problems
    /// of one playlist become its outcome's diagnostics, never a stop.
    public func run(_ package: PlaylistPackage) -> [PlaylistOutcome] {
        var outcomes: [PlaylistOutcome] = []
        let media = MediaPlaylistApplier(options: options)
        for file in package.media {
            outcomes.append(
                process(file) { source throws(IOError) in
                    let survey = try media.survey(source, identity: PlaylistIdentity(path: file.path))
                    return (survey.outcome, { (source, emitter: inout SinkEmitter) throws(IOError) in
                        try media.write(source, identity: PlaylistIdentity(path: file.path), survey: survey, into: &emitter)
                    }, { (source, emitter: inout DiffEmitter) throws(IOError) in
                        try media.write(source, identity: PlaylistIdentity(path: file.path), survey: survey, into: &emitter)
                    })
                })
        }
        guard let master = package.master else { return outcomes }
        var blocked = package.diagnostics
        for outcome in outcomes where outcome.failed {
            blocked.append(
                Diagnostic(
                    id: "PKG-media-failed", severity: .error,
                    message: "not updated: its media playlist \(outcome.path) has errors",
                    location: SourceLocation(path: master.path, line: 1, column: 1, offset: 0)))
        }
        if blocked.contains(where: { $0.severity == .error }) {
            var outcome = PlaylistOutcome(path: master.path, kind: .master)
            outcome.diagnostics = blocked
            outcomes.append(outcome)
            return outcomes
        }
        var wanted: [SessionKeyValue] = []
        var seen: Set<SessionKeyValue> = []
        for outcome in outcomes {
            for key in outcome.fairPlayKeys where seen.insert(key).inserted { wanted.append(key) }
        }
        let applier = MasterPlaylistApplier(options: options)
        var outcome = process(master) { source throws(IOError) in
            let survey = try applier.survey(source, path: master.path, wanted: wanted)
            return (survey.outcome, { (source, emitter: inout SinkEmitter) throws(IOError) in
                try applier.write(source, path: master.path, survey: survey, into: &emitter)
            }, { (source, emitter: inout DiffEmitter) throws(IOError) in
                try applier.write(source, path: master.path, survey: survey, into: &emitter)
            })
        }
        outcome.diagnostics = package.diagnostics + outcome.diagnostics
        outcomes.append(outcome)
        return outcomes
    }

    typealias Writer<Emitter: ~Copyable> = (any ByteSource, inout Emitter) throws(IOError) -> Void

    /// Surveys one file, then writes it where the destination says, if nothing is wrong.
    private func process(
        _ file: PlaylistFile,
        survey: (any ByteSource) throws(IOError) -> (PlaylistOutcome, Writer<SinkEmitter>, Writer<DiffEmitter>)
    ) -> PlaylistOutcome {
        var outcome = PlaylistOutcome(path: file.path, kind: .unknown)
        do throws(IOError) {
            let (surveyed, write, writeDiff) = try survey(try FileDescriptorSource.open(path: file.path))
            outcome = surveyed
            guard !outcome.failed else { return outcome }
            switch destination {
            case .check:
                break
            case .standardOutput:
                var emitter = SinkEmitter(sink: OutputSink(fd: 1, path: "<stdout>"))
                try write(try FileDescriptorSource.open(path: file.path), &emitter)
                try emitter.sink.flush()
            case .diff:
                guard outcome.changed else { break }
                var emitter = DiffEmitter(
                    sink: OutputSink(fd: 1, path: "<stdout>"), path: file.relativePath, redaction: options.redaction)
                try writeDiff(try FileDescriptorSource.open(path: file.path), &emitter)
                try emitter.finish()
            case .inPlace:
                guard outcome.changed else { break }
                var original = stat()
                guard stat(file.path, &original) == 0 else {
                    throw IOError(path: file.path, operation: "read the permissions of", errno: errno)
                }
                try AtomicFile.write(to: file.path, replacing: original) { fd throws(IOError) in
                    var emitter = SinkEmitter(sink: OutputSink(fd: fd, path: file.path))
                    try write(try FileDescriptorSource.open(path: file.path), &emitter)
                    try emitter.sink.flush()
                }
            case .directory(let root):
                let target = root + "/" + file.relativePath
                try makeDirectories(AtomicFile.directory(of: target))
                try AtomicFile.write(to: target) { fd throws(IOError) in
                    var emitter = SinkEmitter(sink: OutputSink(fd: fd, path: target))
                    try write(try FileDescriptorSource.open(path: file.path), &emitter)
                    try emitter.sink.flush()
                }
            }
        } catch {
            outcome.diagnostics.append(
                Diagnostic(
                    id: "IO-failed", severity: .error, message: error.description,
                    location: SourceLocation(path: file.path, line: 1, column: 1, offset: 0)))
        }
        return outcome
    }

    private func makeDirectories(_ path: String) throws(IOError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw IOError(path: current, operation: "create the directory", errno: errno)
            }
        }
    }
}
