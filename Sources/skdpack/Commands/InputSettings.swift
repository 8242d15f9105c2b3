import HLS
import SKDFiles
import SKDPack

/// What `apply` and `validate` both take: how their inputs are walked (links, the document root, the jobs, the
/// share of a library) and read (the reader's limits), and whether a progress bar shows.
struct InputSettings: Equatable {
    var followSymlinks = false
    var root: String?
    var jobs: Int?
    var shard: String?
    var noProgress = false
    var exclude: [String] = []
    var maxLineLength = LineReader.defaultMaximumLineLength
    var maxPlaylistSize = ReaderOptions.defaultMaximumPlaylistSize
    var maxSegments = ReaderOptions.defaultMaximumSegmentCount

    typealias Table = OptionTable<InputSettings>

    /// What a command's declarations parsed.
    init(followSymlinks: Bool, root: String?, _ library: LibraryOptions, _ limits: ReaderLimitOptions) {
        (self.followSymlinks, self.root, jobs, shard, noProgress) = (followSymlinks, root, library.jobs, library.shard, library.noProgress)
        exclude = library.exclude
        (maxLineLength, maxPlaylistSize, maxSegments) = (limits.maxLineLength.bytes, limits.maxPlaylistSize.bytes, limits.maxSegments)
    }

    init() {}

    /// The options that set these, for a command's table (``OptionTable/lifting(_:into:)``).
    static let options: [Table.Option] = [
        Table.flag("--follow-symlinks", \.followSymlinks), Table.flag("--no-progress", \.noProgress),
        Table.value("--root") { $0.root = $1 }, Table.value("--shard") { $0.shard = $1 }, Table.repeated("--exclude", \.exclude),
        Table.number("--jobs", \.jobs) { Int($0) }, Table.number("--max-segments", \.maxSegments) { Int($0) },
        Table.number("--max-line-length", \.maxLineLength, Table.size),
        Table.number("--max-playlist-size", \.maxPlaylistSize, Table.size),
    ]

    /// What a run goes over: the paths given (standard input spooled among them), walked and shared as these say.
    func library(_ given: StandardInput.Inputs) throws -> LibraryInput {
        var library = LibraryInput(paths: given.paths)
        library.followSymlinks = followSymlinks
        library.exclusion = Exclusion(exclude)
        library.root = root
        library.shard = try LibraryOptions.shard(shard)
        library.jobs = try LibraryOptions.jobCount(jobs)
        library.spooled = given.spooled
        library.names = .commandLine
        return library
    }

    /// `options` with these limits, checked.
    func reader(_ options: ReaderOptions) throws -> ReaderOptions {
        try ReaderLimitOptions.applied(to: options, lineLength: maxLineLength, playlistSize: maxPlaylistSize, segments: maxSegments)
    }
}
