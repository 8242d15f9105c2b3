import Glibc
import HLS
import SKDBytes

/// A file being written beside its final place, so that a failure or a kill at any moment leaves either
/// the old file or the whole new one: the bytes go to a temporary file in the same directory, and the
/// temporary file is renamed over the target (rename is atomic within a file system).
///
/// The file is not forced to disk (no fsync), like `sed -i`: a killed process can only leave the old or the
/// new file, and ext4 writes a renamed-over file's data before the rename. `durable` adds fsync, for
/// power-loss safety at the cost of a disk flush per file.
public final class AtomicFile {
    /// The prefix of temporary files, so that a later run can recognise the leftovers of a run that was
    /// killed and remove them, and never read them as playlists (directory walks skip hidden files).
    public static let temporaryPrefix = ".skdpack-"
    /// Only root can give a file to its original owner; asked once.
    private static let isRoot = getuid() == 0

    public let target: String
    public let fd: Int32
    private let temporary: String
    private var finished = false

    /// Creates the temporary file for `target` in `target`'s directory.
    public init(target: String) throws(IOError) {
        let directory = Self.directory(of: target)
        let name = PathComponents.of(target).last ?? target
        var template = Array("\(directory)/\(Self.temporaryPrefix)\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw IOError(path: target, operation: "create a temporary file beside", errno: errno) }
        // Held until the rename: how a later run tells this file, in flight, from the leftover of a run
        // that was killed (``TemporaryLeftovers``). The kernel drops the lock when the process dies.
        _ = flock(fd, LOCK_EX)
        self.target = target
        self.fd = fd
        self.temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { discard() }

    /// Overwrites bytes already written (to patch a value whose length does not change).
    public func patch(_ bytes: [UInt8], at offset: Int) throws(IOError) {
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw IOError(path: target, operation: "write", errno: errno) }
    }

    /// Empties the file, to write it again.
    public func restart() throws(IOError) {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
            throw IOError(path: target, operation: "rewrite", errno: errno)
        }
    }

    /// Makes the file the target: permissions of `original` (0644 for a new file; its owner too when
    /// running as root), flushed to disk, renamed into place, and the rename flushed.
    public func commit(replacing original: stat? = nil, durable: Bool = false) throws(IOError) {
        let mode = original.map { $0.st_mode & 0o7777 } ?? 0o644
        guard fchmod(fd, mode) == 0 else { throw IOError(path: target, operation: "set the permissions of", errno: errno) }
        if let original, Self.isRoot { _ = fchown(fd, original.st_uid, original.st_gid) }
        if durable, fsync(fd) != 0 { throw IOError(path: target, operation: "flush to disk", errno: errno) }
        guard rename(temporary, target) == 0 else { throw IOError(path: target, operation: "replace", errno: errno) }
        finished = true
        close(fd)
        if durable {
            let directoryFD = open(Self.directory(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryFD >= 0 {
                _ = fsync(directoryFD)
                close(directoryFD)
            }
        }
    }

    /// Copies what was written to `destination` (standard output), then removes the file.
    public func copy(to destination: Int32, path: String) throws(IOError) {
        try FileCopy.copy(fd, named: target, to: destination, path: path)
        discard()
    }

    /// Removes the temporary file; the target stays as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        close(fd)
        unlink(temporary)
    }

    /// The bytes written so far, read from the start: for a look at the result before it is put in place.
    public func readBack() throws(IOError) -> FileDescriptorSource {
        try FileDescriptorSource.open(path: temporary)
    }

    /// Makes `path` and the directories above it that are missing (`mkdir -p`).
    public static func makeDirectories(_ path: String) throws(IOError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw IOError(path: current, operation: "create the directory", errno: errno)
            }
        }
    }

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// A file's bytes, from its start, copied to another descriptor: in the kernel (sendfile) where it can, read
/// and written where it cannot (some outputs).
enum FileCopy {
    static func copy(_ fd: Int32, named name: String, to destination: Int32, path: String) throws(IOError) {
        var size = stat()
        guard fstat(fd, &size) == 0 else { throw IOError(path: name, operation: "read back", errno: errno) }
        var offset = off_t(0)
        while offset < size.st_size {
            let sent = SystemCall.retrying { sendfile(destination, fd, &offset, Int(size.st_size - offset)) }
            if sent > 0 { continue }
            if sent < 0, errno == EINVAL || errno == ENOSYS {
                try copyByReading(fd, named: name, from: offset, to: destination, path: path)
                return
            }
            throw IOError(path: path, operation: "write", errno: sent < 0 ? errno : EIO)
        }
    }

    private static func copyByReading(
        _ fd: Int32, named name: String, from offset: off_t, to destination: Int32, path: String
    )
        throws(IOError)
    {
        guard lseek(fd, offset, SEEK_SET) >= 0 else { throw IOError(path: name, operation: "read back", errno: errno) }
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var sink = OutputSink(fd: destination, path: path)
        while true {
            let count = SystemCall.retrying { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            guard count >= 0 else { throw IOError(path: name, operation: "read back", errno: errno) }
            if count == 0 { break }
            try sink.write(Array(buffer[..<count]))
        }
        try sink.flush()
    }
}
