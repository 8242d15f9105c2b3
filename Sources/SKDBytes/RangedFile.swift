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

    /// The file at `path` (or its `range`), or why it cannot be read, as the failure of a reader of files of
    /// `Format`.
    package static func opening<Format>(
        _ path: String, range: (length: Int, offset: Int)?, as format: Format.Type
    ) throws(RangedFileFailure<Format>) -> RangedFile {
        do throws(OpenError) {
            return try RangedFile(path: path, range: range)
        } catch {
            switch error {
            case .unreadable(let reason): throw RangedFileFailure(path: path, problem: .unreadable(reason))
            case .rangeOutside(let fileSize): throw RangedFileFailure(path: path, problem: .rangeOutside(fileSize: fileSize))
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

/// Why a file (or the byte range of it an `EXT-X-BYTERANGE` names) could not be read as a `Format` (an init
/// segment, a media segment, a transport stream segment), with its path: the one failure of the readers of
/// media files.
public struct RangedFileFailure<Format: Error & Sendable & Equatable>: Error, Sendable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The operating system's reason.
        case unreadable(String)
        /// Larger than a reader that reads it whole allows (an init segment).
        case tooLarge(size: Int, limit: Int)
        /// A byte range past the file's end.
        case rangeOutside(fileSize: Int)
        /// Read, but not as the format says: where and why.
        case malformed(Format)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) { (self.path, self.problem) = (path, problem) }

    public var description: String {
        switch problem {
        case .unreadable(let reason): "\(path): cannot be read: \(reason)"
        case .tooLarge(let size, let limit): "\(path): \(size) bytes, more than the \(limit)-byte limit"
        case .rangeOutside(let fileSize): "\(path): the byte range runs past the end of the file (\(fileSize) bytes)"
        case .malformed(let error): "\(path): \(error)"
        }
    }
}
