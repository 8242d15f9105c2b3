import Glibc

/// Which version of a file was read: its identity, size and modification time. A file rewritten in place
/// is replaced only if it is still the version that was read, so a writer that changed it meanwhile (a
/// packager still appending segments, an editor) never loses its change to skdpack's rename. (A rewrite
/// that keeps the size and lands within the file system's timestamp granularity, a few milliseconds on
/// ext4, is not seen: nothing cheaper than reading the file again would see it.)
package struct FileVersion: Equatable {
    private var device: UInt64
    private var inode: UInt64
    private var size: Int64
    private var modifiedSeconds: Int
    private var modifiedNanoseconds: Int

    /// The version of the file at `path` now (symbolic links followed), or `nil` if it cannot be seen.
    package init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}
