import HLS
import SKDFiles

/// Runs `validate` over packages of playlists: each playlist in one streaming pass, then the package rules
/// (`PKG`) over them, each package finding given to the playlist it is about.
public struct ValidationRunner: Sendable {
    public var options: ValidationOptions

    public init(options: ValidationOptions) { self.options = options }

    /// What validating one package found.
    public struct PackageResult: Sendable {
        /// The package's key (its master's path, or the playlist's).
        public var package: String
        /// A result per playlist read, in path order.
        public var playlists: [PlaylistValidation]
        /// The playlists that could not be read, with the reason.
        public var unreadable: [IOError]
    }

    /// Validates the playlists of `package`; a playlist that cannot be read is noted, never a stop.
    public func run(_ package: PlaylistPackage) -> PackageResult {
        var master: PlaylistValidation?
        var media: [PlaylistValidation] = []
        var unreadable: [IOError] = []
        for file in [package.master].compactMap({ $0 }) + package.media {
            do {
                let result = try PlaylistValidator.validate(
                    try FileDescriptorSource.open(path: file.path), path: file.path, options: options,
                    tracks: package.tracks[file.path] ?? [], identity: package.identity(of: file))
                if file.path == package.master?.path { master = result } else { media.append(result) }
            } catch {
                unreadable.append(error)
            }
        }
        let packageFindings =
            package.diagnostics.filter { options.findingPolicy.keeps($0.id) }
            + PackageValidator.validate(
                master: master, media: media, unreadMedia: package.unreadMedia + unreadable.count,
                iFramePlaylists: package.iFramePlaylists, options: options)
        let playlists = ([master].compactMap { $0 } + media).map { result in
            var result = result
            let own = packageFindings.filter { $0.location.path == result.path }
            if !own.isEmpty {
                result.diagnostics = (result.diagnostics + own).sorted {
                    ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column)
                }
            }
            return result
        }
        return PackageResult(package: package.key, playlists: playlists.sorted { $0.path < $1.path }, unreadable: unreadable)
    }

    /// A title's playlists held to the titles of the run before it (``RunKeyMap``): each finding given to
    /// the playlist it is about, unless the rule is disabled. (Its messages name places and KEYIDs, never a URI.)
    package func heldToTheRun(_ playlists: [PlaylistValidation], title: String, keys: inout RunKeyMap) -> [PlaylistValidation] {
        guard options.findingPolicy.keeps(RunKeyMap.kind.id) else { return playlists }
        let findings = keys.check(playlists, title: title)
        guard !findings.isEmpty else { return playlists }
        return playlists.map { playlist in
            var playlist = playlist
            let own = findings.filter { $0.location.path == playlist.path }
            guard !own.isEmpty else { return playlist }
            playlist.diagnostics = PlaylistValidator.inLineOrder(playlist.diagnostics + own)
            return playlist
        }
    }
}
