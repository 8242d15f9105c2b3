import Glibc
import HLS

/// The lock a run holds on a title (a package) while it reads and rewrites it in place, so that two runs
/// over one library (two migrations started at once, or shards of two runs) never leave a title with one
/// run's media keys and the other's session keys.
///
/// It is an open-file-description lock (`fcntl` `F_OFD_SETLK`, a whole-file write lock) on the file
/// `.skdpack.lock` in the title's folder, made for the time the title is held and removed before it is
/// let go (a run that got the lock of a file already removed takes the new one). Linux keeps these locks
/// between the processes of one machine and, on NFS (v4, or v3 with lockd), between machines sharing
/// the volume; a process that dies drops its locks (and a killed run's lock file, left behind, is taken
/// by the next run as any other). The holder writes its process id and host into the file, so that a run
/// that gives up can say who held the title.
public final class TitleLock {
    public static let fileName = ".skdpack.lock"
    private let fd: Int32
    private let path: String

    /// Linux's `F_OFD_SETLK`, which Swift's Glibc module does not export (37 on every Linux architecture).
    private static let setLock: Int32 = 37

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Removed while still held, so that no library keeps a lock file: a run waiting on it finds it gone
    /// once it has the lock, and takes the next one.
    deinit {
        unlink(path)
        close(fd)
    }

    /// What stopped a lock from being taken.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Another run held the title for all of `waited` seconds; `holder` is what it wrote of itself.
        case held(path: String, holder: String, waited: Double)
        case system(IOError)

        public var description: String {
            switch self {
            case .held(let path, let holder, let waited):
                "another skdpack run holds this title (\(holder.isEmpty ? path : holder)); waited \(Self.seconds(waited)) s"
            case .system(let error): error.description
            }
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    /// The lock of the title in `directory`, waiting up to `wait` seconds for a run that holds it; nil when
    /// the folder cannot be written (read-only, or not the caller's): then no run can rewrite the title in
    /// place, and nothing needs holding (a run that finds nothing to change still succeeds).
    public static func acquire(directory: String, wait: Double) throws(Failure) -> TitleLock? {
        let path = directory + "/" + fileName
        let deadline = now() + wait
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            if fd < 0, errno == EACCES || errno == EROFS || errno == EPERM { return nil }
            guard fd >= 0 else { throw .system(IOError(path: path, operation: "open the title's lock", errno: errno)) }
            do {
                try lock(fd, path: path, until: deadline, waited: wait)
            } catch {
                close(fd)
                throw error
            }
            // The holder before may have removed the file while this run waited on it: a lock on a file no
            // longer at `path` holds nothing, so take the one there now.
            var held = stat()
            var current = stat()
            if fstat(fd, &held) == 0, stat(path, &current) == 0, held.st_dev == current.st_dev, held.st_ino == current.st_ino {
                let lock = TitleLock(fd: fd, path: path)
                lock.describeHolder()
                return lock
            }
            close(fd)
        }
    }

    private static func lock(_ fd: Int32, path: String, until deadline: Double, waited: Double) throws(Failure) {
        var pause: Double = 0.002
        while true {
            var request = flock()
            request.l_type = Int16(F_WRLCK)
            request.l_whence = Int16(SEEK_SET)
            if fcntl(fd, setLock, &request) == 0 { return }
            let error = errno
            guard error == EAGAIN || error == EACCES || error == EINTR else {
                throw .system(IOError(path: path, operation: "lock the title", errno: error))
            }
            guard now() < deadline else { throw .held(path: path, holder: holder(of: fd), waited: waited) }
            usleep(useconds_t(pause * 1_000_000))
            pause = min(pause * 2, 0.1)
        }
    }

    /// Writes who holds the lock into its file: what a run that gives up shows.
    private func describeHolder() {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let text = Array("skdpack process \(getpid()) on \(hostName)\n".utf8)
        guard ftruncate(fd, 0) == 0 else { return }
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    private static func holder(of fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 200)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        return String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
