import Glibc
import HLS

/// A stream output that is a regular file (`skdpack apply … > out.m3u8`): written in place, with the
/// offset it started at, so that a run that fails can cut it back and leave nothing half-written.
package struct StreamOutputFile: Sendable {
    package let fd: Int32
    package let name: String
    package let start: off_t

    /// The stream as a regular file at its current offset, or `nil` (a pipe, a terminal).
    package init?(_ stream: StreamOutput) {
        var info = stat()
        guard fstat(stream.fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(stream.fd, 0, SEEK_CUR)
        guard offset >= 0 else { return nil }
        fd = stream.fd
        name = stream.name
        start = offset
    }

    /// Removes everything written since `start`, and goes back there.
    package func truncate() throws(IOError) {
        guard ftruncate(fd, start) == 0, lseek(fd, start, SEEK_SET) == start else {
            throw IOError(path: name, operation: "cut back", errno: errno)
        }
    }

    /// Overwrites bytes at `offset` from the start of this output.
    package func patch(_ bytes: [UInt8], at offset: Int) throws(IOError) {
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, start + off_t(offset)) }
        guard written == bytes.count else { throw IOError(path: name, operation: "write", errno: errno) }
    }
}

/// Where `apply` writes what is not a file of its own: the one playlist given, to standard output, and the
/// diffs of a dry run.
public struct StreamOutput: Sendable {
    /// An open file descriptor the caller owns (a command line's standard output, say).
    public var fd: Int32
    /// Its name in messages.
    public var name: String
    /// A directory for the temporary file a playlist is written to before it is copied to `fd` (when
    /// `fd` is not a regular file that can be cut back if the playlist fails).
    public var temporaryDirectory: String

    public init(fd: Int32, name: String, temporaryDirectory: String) {
        self.fd = fd
        self.name = name
        self.temporaryDirectory = temporaryDirectory
    }
}
