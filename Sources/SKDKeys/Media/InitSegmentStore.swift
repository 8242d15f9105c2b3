import MP4
import SKDFiles
import Synchronization

/// The init segments a run reads, each distinct file (and byte range) read once however many playlists
/// name it; safe to share between the jobs of a library run.
public final class InitSegmentStore: Sendable {
    /// What became of one init segment.
    public typealias Lookup = Result<InitSegment, InitSegmentFile.Failure>

    /// The largest init segment read (`--max-init-size`).
    public let limit: Int
    /// Made at the first lookup, and held in a class: a run that reads no init segment (most runs make a
    /// store) then never instantiates the dictionary's type, even to destroy it, whose first use in a
    /// process costs a scan of the runtime's conformances.
    private let cache = Mutex<Lookups?>(nil)

    private final class Lookups {
        var byKey: [String: Lookup] = [:]
    }

    public init(limit: Int = InitSegmentFile.defaultLimit) { self.limit = limit }

    /// The init segment at `path`, in `range` when the map has a `BYTERANGE`.
    public func segment(at path: String, range: ByteRange?) -> Lookup {
        let key = path + (range.map { "#\($0.length)@\($0.offset)" } ?? "")
        if let known = cache.withLock({ $0?.byKey[key] }) { return known }
        let lookup = Result { () throws(InitSegmentFile.Failure) in
            try InitSegmentFile.read(path, range: range.map { ($0.length, $0.offset) }, limit: limit)
        }
        cache.withLock { cache in
            if cache == nil { cache = Lookups() }
            cache!.byKey[key] = lookup
        }
        return lookup
    }

    /// What an `EXT-X-MAP` names: a file beside its playlist, read (or why not), or a remote URI.
    public enum MapSegment: Sendable {
        /// A URI with a scheme, or root-relative: not a file here.
        case remote(String)
        case read(InitSegment, file: String)
        case failed(InitSegmentFile.Failure, file: String)
    }

    /// The init segment of the `EXT-X-MAP` whose URI (substituted) is `uri` and `BYTERANGE` `byteRange`, in
    /// the playlist at `playlistPath`: the one place a map becomes an init segment (apply's `--kid-from
    /// media`, validate's `--media`, inspect).
    public func segment(ofMap uri: String, byteRange: String?, inPlaylistAt playlistPath: String) -> MapSegment {
        guard let file = Self.localPath(of: uri, inPlaylistAt: playlistPath) else { return .remote(uri) }
        switch segment(at: file, range: byteRange.flatMap(ByteRange.init)) {
        case .success(let segment): return .read(segment, file: file)
        case .failure(let failure): return .failed(failure, file: file)
        }
    }

    /// The init segment an `EXT-X-MAP` of the playlist at `playlistPath` names: `nil` for a URI with a
    /// scheme (remote media cannot be checked here), else the file beside the playlist.
    package static func localPath(of uri: String, inPlaylistAt playlistPath: String) -> String? {
        // The same reading of a reference as a master's playlist references; root-relative is not local.
        guard let file = MasterReferences.localPath(uri), !file.hasPrefix("/") else { return nil }
        return AtomicFile.directory(of: playlistPath) + "/" + file
    }
}

/// An `EXT-X-MAP` `BYTERANGE`: `length[@offset]`, the offset 0 when absent.
public struct ByteRange: Sendable, Equatable {
    public var length: Int
    public var offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }

    /// `nil` when `text` is not `n[@o]` with decimal integers.
    public init?(_ text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = Int(parts[0]), length >= 0 else { return nil }
        self.length = length
        if parts.count == 2 {
            guard let offset = Int(parts[1]), offset >= 0 else { return nil }
            self.offset = offset
        } else {
            self.offset = 0
        }
    }
}
