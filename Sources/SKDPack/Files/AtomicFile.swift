import Glibc
import HLS

/// Writes a file so that a failure or a kill at any moment leaves either the old file or the whole new
/// one: the bytes go to a temporary file beside the target, are flushed to disk, and the temporary file
/// is renamed over the target (rename is atomic within a file system).
public enum AtomicFile {
    /// The prefix of temporary files, so a later run can recognise (and never read as playlists) the
    /// leftovers of a run that was killed.
    public static let temporaryPrefix = ".skdpack-"

    /// Writes `path` with what `body` writes to the file descriptor it is given (all of it, flushed,
    /// before it returns). The file gets the permissions of `original` (or 0644 for a new file) and, when
    /// running as root, its owner.
    public static func write(
        to path: String, replacing original: stat? = nil, _ body: (Int32) throws(IOError) -> Void
    ) throws(IOError) {
        let directory = Self.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory)/\(temporaryPrefix)\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw IOError(path: path, operation: "create a temporary file beside", errno: errno) }
        let temporary = String(cString: template)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        do throws(IOError) {
            try body(fd)
            let mode = original.map { $0.st_mode & 0o7777 } ?? 0o644
            guard fchmod(fd, mode) == 0 else { throw IOError(path: path, operation: "set the permissions of", errno: errno) }
            if let original, getuid() == 0 { _ = fchown(fd, original.st_uid, original.st_gid) }
            guard fsync(fd) == 0 else { throw IOError(path: path, operation: "flush to disk", errno: errno) }
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw IOError(path: path, operation: "close", errno: errno) }
        guard rename(temporary, path) == 0 else { throw IOError(path: path, operation: "replace", errno: errno) }
        done = true
        // Make the rename itself durable.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
