import Glibc
import SKDBytes

/// Reading a media segment from a file: the whole file, or the byte range an `EXT-X-BYTERANGE` names. Only
/// box headers and the boxes that describe samples are read (`pread` at their offsets); `mdat` is skipped.
public enum MediaSegmentFile {
    /// Why a media segment could not be read, with the file's path.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public enum Problem: Sendable, Equatable {
            /// The operating system's reason.
            case unreadable(String)
            /// A byte range past the file's end.
            case rangeOutside(fileSize: Int)
            case malformed(MP4FormatError)
        }

        public var path: String
        public var problem: Problem

        public var description: String {
            switch problem {
            case .unreadable(let reason): "\(path): cannot be read: \(reason)"
            case .rangeOutside(let fileSize): "\(path): the byte range runs past the end of the file (\(fileSize) bytes)"
            case .malformed(let error): "\(path): \(error)"
            }
        }
    }

    /// The segment at `path`, or its `length` bytes from `offset`; `defaults` are the init segment's
    /// `trex` values for what the fragments leave out.
    public static func read(
        _ path: String, range: (length: Int, offset: Int)? = nil, defaults: [FragmentDefaults] = []
    ) throws(Failure) -> MediaSegment {
        let file = try SegmentFile(path: path, range: range)
        defer { file.close() }
        var walk = MediaSegmentWalk(size: file.length, baseOffset: file.start, defaults: defaults, read: file.read)
        do {
            return try walk.run()
        } catch {
            throw Failure(path: path, problem: .malformed(error))
        }
    }
}

extension MediaSegment {
    /// Reads the media segment in `bytes` (tests, the fuzz target); `baseOffset` is where they start in
    /// their file, for messages.
    public static func parse(
        _ bytes: [UInt8], baseOffset: Int = 0, defaults: [FragmentDefaults] = []
    ) throws(MP4FormatError) -> MediaSegment {
        var walk = MediaSegmentWalk(size: bytes.count, baseOffset: baseOffset, defaults: defaults) { offset, length in
            Array(bytes[offset..<(offset + length)])
        }
        return try walk.run()
    }
}

/// An open file and the part of it that is the segment, read by offset.
struct SegmentFile {
    let fd: Int32
    let path: String
    /// The segment's first byte in the file, and its length.
    let start: Int
    let length: Int

    init(path: String, range: (length: Int, offset: Int)?) throws(MediaSegmentFile.Failure) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .init(path: path, problem: .unreadable(String(cString: strerror(errno)))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            let reason = (info.st_mode & S_IFMT) != S_IFREG ? "not a regular file" : String(cString: strerror(errno))
            Glibc.close(fd)
            throw .init(path: path, problem: .unreadable(reason))
        }
        let fileSize = Int(info.st_size)
        let start = range?.offset ?? 0
        let length = range?.length ?? fileSize
        guard start >= 0, length >= 0, start <= fileSize, length <= fileSize - start else {
            Glibc.close(fd)
            throw .init(path: path, problem: .rangeOutside(fileSize: fileSize))
        }
        (self.fd, self.start, self.length) = (fd, start, length)
    }

    func close() { Glibc.close(fd) }

    /// `count` bytes at `offset` of the segment, which the caller keeps within ``length``.
    /// A read the system refuses (an I/O error, a file cut short while read) is a finding at its offset.
    func read(_ offset: Int, _ count: Int) throws(MP4FormatError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = SystemCall.retrying {
                bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(start + offset + done)) }
            }
            guard got > 0 else {
                let reason = got == 0 ? "the file ended early" : String(cString: strerror(errno))
                throw MP4FormatError(offset: start + offset + done, boxPath: [], reason: "cannot be read: \(reason)")
            }
            done += got
        }
        return bytes
    }
}
