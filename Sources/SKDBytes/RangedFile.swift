import Glibc

/// A regular file opened for reading part of it: the whole file, or `length` bytes from `offset` (an HLS
/// byte range), every read made at an offset (`pread`) and kept inside that part. The one way the init
/// segment, media segment and transport stream readers open what they read.
package struct RangedFile {
    package enum OpenError: Error {
        /// The operating system's reason, or "not a regular file".
        case unreadable(String)
        /// The byte range runs past the end of the file.
        case rangeOutside(fileSize: Int)
    }

    /// A read that failed: the file's offset where it did, and why.
    package struct ReadError: Error {
        package var offset: Int
        package var reason: String
    }

    package let fd: Int32
    /// The part's first byte in the file, and its length.
    package let start: Int
    package let length: Int

    /// The file at `path` (or its `range`); what stops it made into the caller's own error by
    /// `unreadable` (the operating system's reason) or `rangeOutside` (the file's size).
    package static func opening<Failure: Error>(
        _ path: String, range: (length: Int, offset: Int)?, unreadable: (String) -> Failure, rangeOutside: (Int) -> Failure
    ) throws(Failure) -> RangedFile {
        do throws(OpenError) {
            return try RangedFile(path: path, range: range)
        } catch {
            switch error {
            case .unreadable(let reason): throw unreadable(reason)
            case .rangeOutside(let fileSize): throw rangeOutside(fileSize)
            }
        }
    }

    package init(path: String, range: (length: Int, offset: Int)?) throws(OpenError) {
        let fd = SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            let reason = (info.st_mode & S_IFMT) != S_IFREG ? "not a regular file" : String(cString: strerror(errno))
            Glibc.close(fd)
            throw .unreadable(reason)
        }
        let fileSize = Int(info.st_size)
        let start = range?.offset ?? 0
        let length = range?.length ?? fileSize
        guard start >= 0, length >= 0, start <= fileSize, length <= fileSize - start else {
            Glibc.close(fd)
            throw .rangeOutside(fileSize: fileSize)
        }
        (self.fd, self.start, self.length) = (fd, start, length)
    }

    package func close() { Glibc.close(fd) }

    /// `count` bytes at `offset` of the part, which the caller keeps within ``length``.
    package func read(_ offset: Int, _ count: Int) throws(ReadError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = SystemCall.retrying {
                bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(start + offset + done)) }
            }
            guard got > 0 else {
                throw ReadError(offset: start + offset + done, reason: got == 0 ? "the file ended early" : String(cString: strerror(errno)))
            }
            done += got
        }
        return bytes
    }
}
