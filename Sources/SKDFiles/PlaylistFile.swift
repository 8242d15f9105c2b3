import CPIX
import Dispatch
import Glibc
import HLS
import SKDBytes
import Synchronization

/// A playlist to process: where it is, and the input root it was found under (for `--output` mirroring).
public struct PlaylistFile: Hashable, Sendable, Comparable {
    /// The path to read, as given or as found under a directory given.
    public var path: String
    /// The path relative to the input it came from, used under `--output DIR`.
    public var relativePath: String
    /// Reached through a symbolic link (`--follow-symlinks`): rewriting it in place means the file the
    /// link points at.
    public var isLink: Bool

    public init(path: String, relativePath: String, isLink: Bool = false) {
        self.path = path
        self.relativePath = relativePath
        self.isLink = isLink
    }

    public static func < (lhs: PlaylistFile, rhs: PlaylistFile) -> Bool { lhs.path < rhs.path }
}

/// A master playlist with the local playlists it references, or one media playlist alone: what `apply`
/// processes as one unit (media first, then the master, whose session keys follow its media).
public struct PlaylistPackage: Sendable {
    public var master: PlaylistFile?
    public var media: [PlaylistFile]
    /// Problems found while putting the package together (a reference outside the input, a missing file).
    public var diagnostics: [Diagnostic]
    /// What the master says of the track each media playlist carries, by path: one entry per reference
    /// (a video playlist listed in several variants has several, normally alike).
    public var tracks: [String: [TrackContext]] = [:]
    /// How many of the master's references name a playlist not read here: remote (`https://…`),
    /// root-relative (`/…`, resolved against a web server's root), missing or outside the input. What
    /// depends on every media playlist (a session key no media playlist uses) cannot be known then.
    public var unreadMedia = 0
    /// The paths of the media playlists an EXT-X-I-FRAME-STREAM-INF names.
    public var iFramePlaylists: Set<String> = []
    /// For one media playlist alone: the masters beside it (in its directory or the one above) that list
    /// it, which the run does not hold. What their session keys announce of this playlist's keys must stay
    /// true when it is rewritten where it is (found with ``PlaylistDiscovery/findsListingMasters``).
    public var listingMasters: [String] = []
    /// The master's root-relative references (`/vod/…`) that could not be read, no document root being
    /// given: `apply` then holds the title back whole.
    public var unreadRootRelative: [String] = []

    public init(
        master: PlaylistFile?, media: [PlaylistFile], diagnostics: [Diagnostic], tracks: [String: [TrackContext]] = [:],
        unreadMedia: Int = 0, iFramePlaylists: Set<String> = []
    ) {
        self.master = master
        self.media = media
        self.diagnostics = diagnostics
        self.tracks = tracks
        self.unreadMedia = unreadMedia
        self.iFramePlaylists = iFramePlaylists
    }

    /// The playlists of the package: its media and its master.
    public var playlistCount: Int { media.count + (master == nil ? 0 : 1) }

    /// What names the package in reports and orders packages: its master's path, or its playlist's.
    public var key: String { master?.path ?? media.first?.path ?? "" }

    /// The identity of `file`, one of the package's playlists: owned by its master's title, and placed
    /// relative to the input it was found under.
    public func identity(of file: PlaylistFile) -> PlaylistIdentity {
        // (The folder by the last `/`: a generic `joined` costs every run a look-up of its witnesses at start.)
        let folder = AtomicFile.directory(of: (master ?? file).relativePath)
        let title = folder == "." ? "" : folder
        return PlaylistIdentity(path: file.path, titlePath: master?.path, relativePath: file.relativePath, titleRelativeDirectory: title)
    }
}

/// Finds playlists and groups them into packages: files given, directories walked (hidden entries
/// skipped, symbolic links not followed unless asked), masters with the media they reference.
public struct PlaylistDiscovery: Sendable {
    public var followSymlinks: Bool
    /// Also look beside each file given for the temporary files a killed run left for it (a directory
    /// read each); those in the directories walked are noted anyway, at no cost.
    public var findsLeftoversBesideFiles: Bool
    /// How messages name the settings.
    public var names: SettingNames
    /// Files that are not where their playlist lives (standard input, spooled to a temporary file): a
    /// master among them has no directory to find its playlists in, so they are not looked for.
    public var unanchored: Set<String> = []
    /// Also look, for each media playlist no master of the run claims, for the master beside it that lists
    /// it (``PlaylistPackage/listingMasters``): a directory and the one above read for each directory of
    /// such playlists.
    public var findsListingMasters: Bool
    /// The web server's document root on this disk, against which root-relative references resolve.
    public var root: String?
    /// What the walk of a directory given leaves out (``Exclusion``): files and folders by name or by path.
    public var exclusion = Exclusion()

    public init(
        followSymlinks: Bool = false, findsLeftoversBesideFiles: Bool = false, findsListingMasters: Bool = false,
        names: SettingNames = SettingNames()
    ) {
        self.followSymlinks = followSymlinks
        self.findsLeftoversBesideFiles = findsLeftoversBesideFiles
        self.findsListingMasters = findsListingMasters
        self.names = names
    }

    public struct Result: Sendable {
        public var packages: [PlaylistPackage]
        /// Inputs that could not be read or walked.
        public var problems: [IOError]
        /// Temporary files of an interrupted run met on the way (see ``TemporaryLeftovers``): in the
        /// directories walked, and beside the files given, for that file.
        public var leftovers: [String] = []
        /// Symbolic links met in the directories walked and not followed (to a folder or a playlist): a
        /// title behind one is not part of the run, which says so.
        public var skippedLinks: [String] = []
        /// The files and folders the walk left out by ``PlaylistDiscovery/exclusion`` (a folder once, not
        /// what is in it).
        public var excluded: [String] = []
        /// The playlists left out (themselves or their folder) that a master of the run lists: read with their
        /// title all the same (a title is read and changed whole).
        public var readWithTitle: [String] = []
        /// The patterns that fit nothing, walked or not (a typo, most often).
        public var unusedExclusions: [String] = []
        /// For a pattern that left out nothing, what it was most likely meant to be: the name walked one or two
        /// edits away, or the pattern without the input's own path (patterns are matched from the directory given).
        public var exclusionHints: [String: String] = [:]

        /// What to say of ``skippedLinks``, naming the setting that follows them; `nil` when there are none.
        public func skippedLinksNote(_ names: SettingNames) -> String? {
            guard let first = skippedLinks.first else { return nil }
            let count = skippedLinks.count
            return "skipped \(count) symbolic link\(count == 1 ? "" : "s") (\(first)\(count > 1 ? ", …" : "")): "
                + "not followed without \(names[.followSymlinks])"
        }

        /// What to say of ``excluded``, ``readWithTitle`` and ``unusedExclusions``: a line for each that has any;
        /// a pattern that left out nothing is an error where `unusedIsError` (a run that writes).
        public func exclusionNotes(_ names: SettingNames, unusedIsError: Bool = false) -> [String] {
            var notes: [String] = []
            if let first = excluded.first {
                let count = excluded.count
                notes.append(
                    "left out \(count) file\(count == 1 ? "" : "s") or folder\(count == 1 ? "" : "s") by \(names[.exclude]) "
                        + "(\(first)\(count > 1 ? ", …" : ""))")
            }
            if let first = readWithTitle.first {
                notes.append(
                    "warning: \(first)\(readWithTitle.count > 1 ? " and \(readWithTitle.count - 1) more" : "") left out by "
                        + "\(names[.exclude]) \(readWithTitle.count > 1 ? "are" : "is") read all the same: a master of the run lists "
                        + "\(readWithTitle.count > 1 ? "them" : "it"), and a title is read whole; leave out the title's folder to leave out the title"
                )
            }
            for pattern in unusedExclusions {
                let hint = exclusionHints[pattern].map { " (did you mean \($0)?)" } ?? ""
                notes.append(
                    "\(unusedIsError ? "error" : "warning"): the pattern \(pattern) of \(names[.exclude]) left out nothing: no file or "
                        + "folder walked matches it\(hint)")
            }
            return notes
        }
    }

    /// Whether the file `name` names may be a playlist: `.m3u8` in any letter case, or `.m3u` (a playlist
    /// only if it starts with `#EXTM3U`, which ``isPlaylist(_:named:)`` reads).
    static func hasPlaylistName(_ name: String) -> Bool {
        // On the bytes, ASCII letters folded: asked of every file of a library, segments included.
        // (`| 0x20` folds the letters and leaves '.', '3' and '8' as they are; only a control character folds into one.)
        let folded = name.utf8.suffix(5).map { $0 | 0x20 }
        return folded.elementsEqual(".m3u8".utf8) || folded.suffix(4).elementsEqual(".m3u".utf8)
    }

    /// Whether a regular file named as ``hasPlaylistName(_:)`` allows is taken for a playlist: a `.m3u8`
    /// always (a file that is not one is reported as such), a `.m3u` (a plain list of media files, as
    /// often as a playlist) only when its first line is `#EXTM3U`.
    static func isPlaylist(_ path: String, named name: String) -> Bool {
        guard !name.lowercased().hasSuffix(".m3u8") else { return true }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 10)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 10, 0) }
        guard count > 0 else { return false }
        let bytes = head.prefix(count)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return bytes.dropFirst(start).starts(with: Array("#EXTM3U".utf8))
    }

    public func discover(_ inputs: [String]) -> Result {
        var files: [PlaylistFile] = []
        var problems: [IOError] = []
        var leftovers: [String] = []
        var skippedLinks: [String] = []
        var excluded: [(path: String, patterns: [Int])] = []
        var walkedNames: Set<String> = []
        // Patterns that fit something the walk did not leave out itself (in a folder left out, a hidden
        // entry, a file given by name): not ones that left out nothing.
        var fitting: Set<Int> = []
        var givenFiles: [String] = []
        // A folder reached twice (overlapping inputs, links) is walked once, across all inputs.
        var visited: Set<[UInt64]> = []
        for input in inputs {
            var info = stat()
            guard lstat(input, &info) == 0 else {
                problems.append(IOError(path: input, operation: "read", errno: errno))
                continue
            }
            let wasLink = isLink(info)
            if wasLink {
                if let broken = Self.brokenLink(input) {
                    problems.append(broken)
                    continue
                }
                guard followSymlinks, stat(input, &info) == 0 else {
                    problems.append(
                        IOError(
                            path: input, operation: "read", errno: ELOOP,
                            reason: "it is a symbolic link, and links are followed only with \(names[.followSymlinks])"))
                    continue
                }
            }
            if isDirectory(info) {
                walk(
                    input, relative: "", into: &files, problems: &problems, leftovers: &leftovers, skippedLinks: &skippedLinks,
                    excluded: &excluded, walkedNames: &walkedNames, fitting: &fitting, visited: &visited)
            } else {
                let name = PathComponents.of(input).last ?? input
                if !exclusion.isEmpty { fitting.formUnion(exclusion.patterns(excluding: name, at: name, isFolder: false)) }
                files.append(
                    PlaylistFile(
                        path: input, relativePath: PathComponents.of(input).last ?? input, isLink: wasLink))
                givenFiles.append(input)
            }
        }
        if findsLeftoversBesideFiles { leftovers += TemporaryLeftovers.find(besides: givenFiles) }
        // One input walked without following links reaches each file once: no stat of each to check it.
        let packages = group((inputs.count > 1 || followSymlinks ? Self.readOnce(files) : files).sorted())
        // A playlist left out (or in a folder left out) that a master of the run lists is read with its title
        // all the same. (Compared as the disk resolves them: a master's references and the walk may spell a path
        // differently, `./lib/t` and `lib/t`.)
        var readWithTitle: [String] = []
        if !excluded.isEmpty {
            let left = excluded.compactMap { Self.resolved($0.path) }
            readWithTitle = packages.flatMap { $0.media.map(\.path) }.filter { path in
                guard let real = Self.resolved(path) else { return false }
                return left.contains { real == $0 || real.hasPrefix($0 + "/") }
            }
        }
        for entry in excluded { fitting.formUnion(entry.patterns) }
        let unused = exclusion.patterns.indices.filter { !fitting.contains($0) }.map { exclusion.patterns[$0] }
        return Result(
            packages: packages, problems: problems,
            leftovers: leftovers.sorted(),
            skippedLinks: skippedLinks.sorted(), excluded: excluded.map(\.path), readWithTitle: readWithTitle,
            unusedExclusions: unused,
            exclusionHints: Dictionary(
                unused.compactMap { pattern in Exclusion.hint(for: pattern, inputs: inputs, names: walkedNames).map { (pattern, $0) } },
                uniquingKeysWith: { first, _ in first }))
    }

    /// `path` with its links, `.` and `..` resolved, or `nil` if it cannot be.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Notes in `fitting` the patterns that fit an entry inside `folder` (left out, so not walked), `depth`
    /// folders down at most.
    private func noteFits(inside folder: String, relative: String, into fitting: inout Set<Int>, depth: Int = 8) {
        guard depth > 0, let handle = opendir(folder) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = entry.name
            guard name != ".", name != ".." else { continue }
            let isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            let relativePath = relative + "/" + name
            fitting.formUnion(exclusion.patterns(excluding: name, at: relativePath, isFolder: isFolder))
            if isFolder { noteFits(inside: entryPath(name, in: folder), relative: relativePath, into: &fitting, depth: depth - 1) }
        }
    }

    /// The files, each file once however often it was reached (by device and inode: `lib`, `./lib` and
    /// `lib/t1/v.m3u8` given together), the first spelling kept.
    static func readOnce(_ files: [PlaylistFile]) -> [PlaylistFile] {
        var seen: Set<[UInt64]> = []
        return files.filter { file in
            var info = stat()
            guard stat(file.path, &info) == 0 else { return true }
            return seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted
        }
    }

    private func walk(
        _ directory: String, relative: String, into files: inout [PlaylistFile], problems: inout [IOError],
        leftovers: inout [String], skippedLinks: inout [String], excluded: inout [(path: String, patterns: [Int])],
        walkedNames: inout Set<String>, fitting: inout Set<Int>, visited: inout Set<[UInt64]>
    ) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            problems.append(IOError(path: directory, operation: "read the directory", errno: errno))
            return
        }
        // A directory reached twice through links is a cycle: walk it once.
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        guard let handle = opendir(directory) else {
            problems.append(IOError(path: directory, operation: "read the directory", errno: errno))
            return
        }
        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(handle) {
            let name = entry.name
            if name.hasPrefix(".") {
                if !exclusion.isEmpty, name != ".", name != ".." {
                    let relativePath = relative.isEmpty ? name : relative + "/" + name
                    fitting.formUnion(
                        exclusion.patterns(excluding: name, at: relativePath, isFolder: entry.pointee.d_type == UInt8(DT_DIR)))
                }
                if TemporaryLeftovers.isTemporaryName(name) {
                    leftovers.append(entryPath(name, in: directory))
                }
                continue
            }
            entries.append((name, entry.pointee.d_type))
        }
        closedir(handle)
        for (name, type) in entries.sorted(by: { $0.name < $1.name }) {
            let path = entryPath(name, in: directory)
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            if !exclusion.isEmpty {
                // Left out before anything is read of it: a folder is not walked (what is in it may fit other patterns).
                var target = stat()
                let isFolder =
                    type == UInt8(DT_DIR)
                    || ((type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK)) && stat(path, &target) == 0 && isDirectory(target))
                // The names a mistyped pattern may have meant: folders and playlists, not every segment.
                if isFolder || Self.hasPlaylistName(name) { walkedNames.insert(name) }
                let patterns = exclusion.patterns(excluding: name, at: relativePath, isFolder: isFolder)
                if !patterns.isEmpty {
                    excluded.append((path, patterns))
                    if isFolder { noteFits(inside: path, relative: relativePath, into: &fitting) }
                    continue
                }
            }
            // The directory entry's type spares an lstat per file; a file system that does not fill it in
            // (DT_UNKNOWN) gets one.
            var kind = type
            if kind == UInt8(DT_UNKNOWN) {
                var entryInfo = stat()
                guard lstat(path, &entryInfo) == 0 else {
                    problems.append(IOError(path: path, operation: "read", errno: errno))
                    continue
                }
                kind = Self.directoryEntryType(entryInfo)
            }
            var viaLink = false
            if kind == UInt8(DT_LNK) {
                // A link that leads nowhere is said, followed or not: it may be a title that went missing.
                if let broken = Self.brokenLink(path) {
                    problems.append(broken)
                    continue
                }
                var target = stat()
                guard stat(path, &target) == 0 else { continue }
                let targetKind = Self.directoryEntryType(target)
                guard followSymlinks else {
                    if targetKind == UInt8(DT_DIR) || (targetKind == UInt8(DT_REG) && Self.hasPlaylistName(name)) {
                        skippedLinks.append(path)
                    }
                    continue
                }
                kind = targetKind
                viaLink = true
            }
            if kind == UInt8(DT_DIR) {
                walk(
                    path, relative: relativePath, into: &files, problems: &problems, leftovers: &leftovers, skippedLinks: &skippedLinks,
                    excluded: &excluded, walkedNames: &walkedNames, fitting: &fitting, visited: &visited)
            } else if kind == UInt8(DT_REG), Self.hasPlaylistName(name), Self.isPlaylist(path, named: name) {
                files.append(PlaylistFile(path: path, relativePath: relativePath, isLink: viaLink))
            }
        }
    }

    /// The problem with the symbolic link at `path` if its target does not exist (or cannot be reached), or
    /// `nil`.
    static func brokenLink(_ path: String) -> IOError? {
        var target = stat()
        guard stat(path, &target) != 0 else { return nil }
        let reason = errno
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        let destination = length >= 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        let what = reason == ENOENT ? "which does not exist" : "which cannot be reached (\(String(cString: strerror(reason))))"
        return IOError(path: path, operation: "read", errno: reason, reason: "it is a symbolic link to \(destination), \(what)")
    }

    /// Which files are masters, and what they reference: every file is opened to find out, so the files
    /// are looked at on all cores (on a slow file system the opens are most of a library run's time).
    static func masterReferences(of files: [PlaylistFile]) -> [MasterReferences?] {
        let results = Mutex<[MasterReferences?]>(Array(repeating: nil, count: files.count))
        let next = Atomic<Int>(0)
        let workers = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) * 2, files.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                let references = MasterReferences.read(files[index].path)
                results.withLock { $0[index] = references }
            }
        }
        return results.withLock { $0 }
    }

    /// Masters claim the local playlists they reference; the rest stand alone. A master never claims a
    /// master: a chain or a circle of masters (invalid HLS) is reported, and each master stays its own
    /// package, so nothing is processed twice.
    func group(_ files: [PlaylistFile]) -> [PlaylistPackage] {
        var byPath: [String: PlaylistFile] = [:]
        for file in files { byPath[PathComponents.normalized(file.path)] = file }
        var claimed: Set<String> = []
        var packages: [PlaylistPackage] = []
        var masters: [(PlaylistFile, MasterReferences)] = []
        for (file, references) in zip(files, Self.masterReferences(of: files)) {
            guard let references else { continue }
            masters.append((file, references))
        }
        let masterPaths = Set(masters.map { PathComponents.normalized($0.0.path) })
        for (master, references) in masters {
            var media: [PlaylistFile] = []
            var tracks: [String: [TrackContext]] = [:]
            var diagnostics: [Diagnostic] = references.diagnostics
            var unread = references.remote
            var iFramePlaylists: Set<String> = []
            guard !unanchored.contains(master.path) else {
                let count = references.local.count + references.rootRelative.count
                if count > 0 {
                    diagnostics.append(
                        PackageDiagnostics.rootRelativeReference(
                            count == 1
                                ? "this master was read from standard input, so the playlist it references cannot be found from here; it is not checked"
                                : "this master was read from standard input, so the \(count) playlists it references cannot be found from here; they are not checked",
                            at: SourceLocation(path: master.path, line: 1, column: 1, offset: 0)))
                }
                packages.append(
                    PlaylistPackage(master: master, media: [], diagnostics: diagnostics, unreadMedia: unread + count))
                claimed.insert(PathComponents.normalized(master.path))
                continue
            }
            var unreadRootRelative: [String] = []
            // Each reference with the path it names here: beside the master, or under the document root.
            var found: [(reference: MasterReferences.Reference, resolved: String, relative: String)] = []
            let masterFolder = AtomicFile.directory(of: master.relativePath)
            for reference in references.local {
                found.append(
                    (
                        reference, PathComponents.normalized(AtomicFile.directory(of: master.path) + "/" + reference.path),
                        PathComponents.normalized((masterFolder == "." ? "" : masterFolder + "/") + reference.path)
                    ))
            }
            for reference in references.rootRelative {
                let relative = String(reference.path.drop { $0 == "/" })
                if let root, !escapes(relative) {
                    found.append((reference, PathComponents.normalized(root + "/" + relative), PathComponents.normalized(relative)))
                    continue
                }
                unread += 1
                unreadRootRelative.append(reference.path)
                // A playlist of the run at the path the reference names under some root is the title's: not
                // a loose playlist of its own, rewritten without its master.
                if let file = files.first(where: { PathComponents.normalized($0.path).hasSuffix(PathComponents.normalized(reference.path)) }
                ),
                    !media.contains(file)
                {
                    media.append(file)
                    claimed.insert(PathComponents.normalized(file.path))
                }
                diagnostics.append(
                    PackageDiagnostics.rootRelativeReference(
                        "\(reference.path) is relative to the web server's root, which skdpack cannot see here "
                            + "(\(names[.root]) says where it is); it is not checked",
                        at: SourceLocation(path: master.path, line: reference.line, column: 1, offset: 0)))
            }
            for (reference, resolved, relative) in found {
                let location = SourceLocation(path: master.path, line: reference.line, column: 1, offset: 0)
                guard reference.path.hasPrefix("/") || !escapes(reference.path) else {
                    unread += 1
                    diagnostics.append(
                        PackageDiagnostics.unsafeReference(
                            "\(reference.path) leaves the master's directory; skdpack reads and writes only inside its input",
                            at: location))
                    continue
                }
                if masterPaths.contains(resolved) || (byPath[resolved] == nil && Self.isMaster(resolved)) {
                    let which = resolved == PathComponents.normalized(master.path) ? "this master playlist itself" : "a master playlist"
                    diagnostics.append(
                        PackageDiagnostics.masterReference(
                            "\(reference.path) is \(which); a variant or rendition must be a media playlist", at: location))
                } else if let file = byPath[resolved] {
                    if reference.isIFrame { iFramePlaylists.insert(file.path) }
                    if !media.contains(file) { media.append(file) }
                    tracks[file.path, default: []].append(reference.track)
                    claimed.insert(resolved)
                } else if access(resolved, F_OK) == 0 {
                    var info = stat()
                    let file = PlaylistFile(path: resolved, relativePath: relative, isLink: lstat(resolved, &info) == 0 && isLink(info))
                    if reference.isIFrame { iFramePlaylists.insert(file.path) }
                    if !media.contains(file) { media.append(file) }
                    tracks[file.path, default: []].append(reference.track)
                    claimed.insert(resolved)
                } else {
                    unread += 1
                    diagnostics.append(
                        PackageDiagnostics.missingReference(
                            // (Where it was looked for only when that is not the reference as written.)
                            "\(reference.path) does not exist" + (resolved == reference.path ? "" : " (looked for \(resolved))"),
                            at: location))
                }
            }
            var package = PlaylistPackage(
                master: master, media: media, diagnostics: diagnostics, tracks: tracks, unreadMedia: unread,
                iFramePlaylists: iFramePlaylists)
            package.unreadRootRelative = unreadRootRelative
            packages.append(package)
            claimed.insert(PathComponents.normalized(master.path))
        }
        var listings = MasterListings()
        for file in files where !claimed.contains(PathComponents.normalized(file.path)) {
            var package = PlaylistPackage(master: nil, media: [file], diagnostics: [])
            if findsListingMasters, !unanchored.contains(file.path) { package.listingMasters = listings.masters(listing: file.path) }
            packages.append(package)
        }
        return packages.sorted { ($0.master ?? $0.media[0]) < ($1.master ?? $1.media[0]) }
    }

    /// Whether a file found through a reference (not among the inputs) is a master playlist.
    private static func isMaster(_ path: String) -> Bool { MasterReferences.read(path) != nil }

    /// Whether a reference climbs out of its master's directory.
    func escapes(_ reference: String) -> Bool {
        var depth = 0
        for part in PathComponents.of(reference) {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { return true }
        }
        return false
    }

    private func isLink(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFLNK }

    /// The `d_type` readdir(3) would give for a file with `info`.
    static func directoryEntryType(_ info: stat) -> UInt8 {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: UInt8(DT_DIR)
        case S_IFREG: UInt8(DT_REG)
        case S_IFLNK: UInt8(DT_LNK)
        default: UInt8(DT_UNKNOWN)
        }
    }
    private func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }
}

/// The masters of directories, each with the files its local references name (by device and inode,
/// whatever the spelling of the paths): for finding the master that lists a media playlist given alone.
/// A directory is read once, however many playlists ask about it.
struct MasterListings {
    private var byDirectory: [String: [(path: String, listed: Set<[UInt64]>)]] = [:]

    /// The masters in the directory of the media playlist at `path`, and in the one above (renditions in a
    /// folder of their own), that list it, by name.
    mutating func masters(listing path: String) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        let file = [UInt64(info.st_dev), UInt64(info.st_ino)]
        let directory = PathComponents.normalized(AtomicFile.directory(of: path))
        let parent = PathComponents.normalized(directory + "/..")
        return (parent == directory ? [directory] : [directory, parent]).flatMap { candidate in
            masters(in: candidate).filter { $0.listed.contains(file) }.map(\.path)
        }
    }

    private mutating func masters(in directory: String) -> [(path: String, listed: Set<[UInt64]>)] {
        if let known = byDirectory[directory] { return known }
        var names: [String] = []
        if let handle = opendir(directory) {
            while let entry = readdir(handle) {
                let name = entry.name
                // Regular files only: opening a FIFO named like a playlist would wait for a writer.
                guard !name.hasPrefix("."), PlaylistDiscovery.hasPlaylistName(name) else { continue }
                var kind = entry.pointee.d_type
                if kind == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    kind = lstat(entryPath(name, in: directory), &info) == 0 ? PlaylistDiscovery.directoryEntryType(info) : 0
                }
                if kind == UInt8(DT_REG) { names.append(name) }
            }
            closedir(handle)
        }
        var found: [(path: String, listed: Set<[UInt64]>)] = []
        for name in names.sorted() {
            let path = entryPath(name, in: directory)
            guard let references = MasterReferences.read(path) else { continue }
            var listed: Set<[UInt64]> = []
            for reference in references.local {
                var info = stat()
                if stat(entryPath(reference.path, in: directory), &info) == 0 { listed.insert([UInt64(info.st_dev), UInt64(info.st_ino)]) }
            }
            found.append((path, listed))
        }
        byDirectory[directory] = found
        return found
    }
}

/// The local playlists a master references: variant URIs, `EXT-X-MEDIA` and I-frame `URI`s.
package struct MasterReferences {
    struct Reference {
        var path: String
        var line: Int
        /// The track the master says the playlist carries.
        var track: TrackContext
        /// Named by EXT-X-I-FRAME-STREAM-INF.
        var isIFrame = false
    }

    var local: [Reference] = []
    /// `/path` references: legal (RFC 8216 4.1 lets URIs be relative), resolved against the web server's
    /// root, which is not on this disk.
    var rootRelative: [Reference] = []
    /// How many references are URLs with a scheme (`https://…`).
    var remote = 0
    var diagnostics: [Diagnostic] = []

    /// The references of the playlist at `path`, or `nil` if it is not a master playlist.
    static func read(_ path: String) -> MasterReferences? {
        // Most playlists of a library are media playlists: an EXTINF line in the first 64 KiB says so
        // without reading the rest.
        if hasSegmentNearStart(path) { return nil }
        guard let source = try? FileDescriptorSource.open(path: path) else { return nil }
        var options = ReaderOptions()
        options.parsesEveryTag = false
        let reader = PlaylistReader(source: source, path: path, options: options)
        var references = MasterReferences()
        var streamInf: Tag?
        do {
            while let line = try reader.next() {
                var uri: String?
                var track = TrackContext(type: .other)
                switch line.kind {
                case .uri where line.uriRole == .variant:
                    uri = line.text
                    track = streamInf.map(MasterTrack.variant) ?? TrackContext(type: .video)
                case .tag(.streamInf):
                    streamInf = line.parseTag()
                case .tag(.media):
                    let tag = line.parseTag()
                    uri = tag?.quotedString("URI")
                    track = tag.map(MasterTrack.rendition) ?? track
                case .tag(.iFrameStreamInf):
                    let tag = line.parseTag()
                    uri = tag?.quotedString("URI")
                    track = tag.map(MasterTrack.variant) ?? track
                case .tag(.extInf):
                    return nil
                default:
                    break
                }
                guard let uri else { continue }
                guard let local = localPath(reader.variables.substitute(uri).text) else {
                    references.remote += 1
                    continue
                }
                let reference = Reference(
                    path: local, line: line.raw.number, track: track, isIFrame: line.kind == .tag(.iFrameStreamInf))
                if local.hasPrefix("/") {
                    references.rootRelative.append(reference)
                } else {
                    references.local.append(reference)
                }
            }
        } catch {
            return nil
        }
        return reader.kind == .master ? references : nil
    }

    private static func hasSegmentNearStart(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // A media playlist's first EXTINF comes within a few hundred bytes: 4 KiB nearly always settles it,
        // and a library's worth of 64 KiB reads would copy the whole library once more.
        for size in [4 << 10, 64 << 10] {
            let settled: Bool? = withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
                let count = pread(fd, buffer.baseAddress, size, 0)
                guard count > 0 else { return false }
                if startsALine(with: Self.extInf, in: UnsafeRawBufferPointer(rebasing: buffer[..<count])) { return true }
                return count < size ? false : nil
            }
            if let settled { return settled }
        }
        return false
    }

    private static let extInf = Array("#EXTINF".utf8)

    /// Whether a line of `bytes` starts with `tag`, line ends found with memchr: this runs over the start of
    /// every playlist of a library.
    private static func startsALine(with tag: [UInt8], in bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var start = 0
        while start + tag.count <= bytes.count {
            if memcmp(base + start, tag, tag.count) == 0 { return true }
            guard let newline = memchr(base + start, 0x0A, bytes.count - start) else { return false }
            start = base.distance(to: UnsafeRawPointer(newline)) + 1
        }
        return false
    }

    /// The file path of a reference, without query or fragment; `nil` for a URL with a scheme.
    package static func localPath(_ uri: String) -> String? {
        // ASCII references (nearly all) are read as bytes: the same answer, without the grapheme breaking of
        // the Character path, which cost 80,000 instructions a reference (40% of finding a library's masters).
        var uri = uri
        return uri.withUTF8 { Bytes.isASCII($0) } ? uri.withUTF8 { asciiLocalPath($0) } : characterLocalPath(uri)
    }

    /// ``localPath(_:)`` on Characters: for references that are not ASCII, and the reference the byte path
    /// is tested against.
    static func characterLocalPath(_ uri: String) -> String? {
        let trimmed = String(uri.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard !trimmed.isEmpty, !trimmed.contains("://"), !trimmed.hasPrefix("data:") else { return nil }
        return String(trimmed.prefix { $0 != "?" && $0 != "#" })
    }

    /// ``localPath(_:)`` of an ASCII reference, on its bytes.
    private static func asciiLocalPath(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
            return nil
        }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[first...last])
        let scheme = Array("://".utf8)
        let hasScheme = trimmed.count >= 3 && (0...(trimmed.count - 3)).contains { trimmed[$0..<($0 + 3)].elementsEqual(scheme) }
        guard !hasScheme, !trimmed.starts(with: "data:".utf8) else { return nil }
        let end = trimmed.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? trimmed.endIndex
        return String(decoding: UnsafeBufferPointer(rebasing: trimmed[..<end]), as: UTF8.self)
    }
}
