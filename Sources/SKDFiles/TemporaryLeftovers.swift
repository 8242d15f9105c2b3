import Glibc
import HLS

/// The temporary files of runs that were killed before they could rename or remove them (SIGKILL, a crash,
/// a power cut). They are hidden, so no walk ever reads them as playlists; a later run that writes in the
/// same place removes them.
///
/// A run still writing a temporary file holds an exclusive `flock` on it from just after its creation to
/// its rename (``AtomicFile``), so a leftover that can be locked belongs to a run that is gone, on this
/// machine or another one sharing the volume. Files younger than ``minimumAge`` are left alone: they may
/// be in the instant between a writer's creating and locking them. (On a file system without `flock`, a
/// writer busy on one file for longer than that could lose its temporary file to a concurrent sweep: its
/// rename then fails and the playlist is reported and left as it was, never torn.)
public enum TemporaryLeftovers {
    /// Seconds a temporary file must have been left unchanged before it is taken for a leftover.
    public static let minimumAge = 5

    /// Whether a directory entry is one of skdpack's temporary files: `.skdpack-NAME.XXXXXX`.
    public static func isTemporaryName(_ name: String) -> Bool {
        let utf8 = name.utf8
        let prefix = AtomicFile.temporaryPrefix.utf8
        guard utf8.count > prefix.count + 7, utf8.starts(with: prefix) else { return false }
        let suffix = utf8.suffix(7)
        return suffix.first == UInt8(ascii: ".")
            && suffix.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The temporary files anywhere under `directory` (symbolic links not followed).
    public static func find(under directory: String) -> [String] {
        var found: [String] = []
        collect(directory, into: &found, depth: 0)
        return found.sorted()
    }

    /// The temporary files made for `files`: `.skdpack-NAME.XXXXXX` beside each `NAME` (a directory read
    /// for each directory the files are in).
    public static func find(besides files: [String]) -> [String] {
        var namesByDirectory: [String: Set<String>] = [:]
        for file in files {
            let name = PathComponents.of(file).last ?? file
            namesByDirectory[AtomicFile.directory(of: file), default: []].insert(name)
        }
        var found: [String] = []
        for (directory, names) in namesByDirectory {
            guard let handle = opendir(directory) else { continue }
            while let entry = readdir(handle) {
                let name = entry.name
                guard isTemporaryName(name), names.contains(String(name.dropFirst(AtomicFile.temporaryPrefix.count).dropLast(7)))
                else { continue }
                found.append(entryPath(name, in: directory))
            }
            closedir(handle)
        }
        return found.sorted()
    }

    /// Removes those of `paths` that no running skdpack holds. Returns what was removed, and why any other
    /// could not be (a file still held, or too recent, is skipped without a word).
    public static func remove(_ paths: [String], now: time_t = time(nil)) -> (removed: [String], problems: [IOError]) {
        var removed: [String] = []
        var problems: [IOError] = []
        for path in paths {
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var held = stat()
            var named = stat()
            guard fstat(fd, &held) == 0, (held.st_mode & S_IFMT) == S_IFREG,
                now - held.st_mtim.tv_sec >= minimumAge,
                flock(fd, LOCK_EX | LOCK_NB) == 0,
                // Still the file of that name: not renamed into place or replaced meanwhile.
                lstat(path, &named) == 0, named.st_ino == held.st_ino, named.st_dev == held.st_dev
            else { continue }
            if unlink(path) == 0 {
                removed.append(path)
            } else {
                problems.append(IOError(path: path, operation: "remove the leftover temporary file", errno: errno))
            }
        }
        return (removed, problems)
    }

    private static func collect(_ directory: String, into found: inout [String], depth: Int) {
        // Deeper than any library; a guard against a pathological tree, not a limit anyone should meet.
        guard depth < 256, let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = entry.name
            guard name != ".", name != ".." else { continue }
            let path = entryPath(name, in: directory)
            if isTemporaryName(name) {
                found.append(path)
            } else if !name.hasPrefix("."), entry.pointee.d_type == UInt8(DT_DIR) {
                collect(path, into: &found, depth: depth + 1)
            } else if !name.hasPrefix("."), entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { collect(path, into: &found, depth: depth + 1) }
            }
        }
    }
}
