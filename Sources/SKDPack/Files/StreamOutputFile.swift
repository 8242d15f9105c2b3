import Glibc
import HLS

/// A stream output that is a regular file (`skdpack apply … > out.m3u8`): written in place, with the
/// offset it started at, so that a run that fails can cut it back and leave nothing half-written.
struct StreamOutputFile: Sendable {
    let fd: Int32
    let name: String
    let start: off_t

    /// The stream as a regular file at its current offset, or `nil` (a pipe, a terminal).
    init?(_ stream: StreamOutput) {
        var info = stat()
        guard fstat(stream.fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(stream.fd, 0, SEEK_CUR)
        guard offset >= 0 else { return nil }
        fd = stream.fd
        name = stream.name
        start = offset
    }

    /// Removes everything written since `start`, and goes back there.
    func truncate() throws(IOError) {
        guard ftruncate(fd, start) == 0, lseek(fd, start, SEEK_SET) == start else {
            throw IOError(path: name, operation: "cut back", errno: errno)
        }
    }

    /// Overwrites bytes at `offset` from the start of this output.
    func patch(_ bytes: [UInt8], at offset: Int) throws(IOError) {
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, start + off_t(offset)) }
        guard written == bytes.count else { throw IOError(path: name, operation: "write", errno: errno) }
    }
}
