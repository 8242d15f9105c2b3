import Glibc
import HLS

/// Standard output when it is a regular file (`skdpack apply … > out.m3u8`): written in place, with the
/// offset it started at, so that a run that fails can cut it back and leave nothing half-written.
struct StandardOutputFile: Sendable {
    let start: off_t

    /// Standard output as a regular file at its current offset, or `nil` (a pipe, a terminal).
    static var current: StandardOutputFile? {
        var info = stat()
        guard fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(1, 0, SEEK_CUR)
        return offset >= 0 ? StandardOutputFile(start: offset) : nil
    }

    /// Removes everything written since `start`, and goes back there.
    func truncate() throws(IOError) {
        guard ftruncate(1, start) == 0, lseek(1, start, SEEK_SET) == start else {
            throw IOError(path: "<stdout>", operation: "cut back", errno: errno)
        }
    }

    /// Overwrites bytes at `offset` from the start of this output.
    func patch(_ bytes: [UInt8], at offset: Int) throws(IOError) {
        let written = bytes.withUnsafeBytes { pwrite(1, $0.baseAddress, $0.count, start + off_t(offset)) }
        guard written == bytes.count else { throw IOError(path: "<stdout>", operation: "write", errno: errno) }
    }
}
