import Glibc
import MP4

/// Tells an fMP4 file or an MPEG-TS segment from a playlist by its first bytes, so that `inspect` takes any.
public enum InitSegmentSniffer {
    /// Whether the file at `path` starts with an ISO BMFF box an init segment starts with.
    public static func looksLikeMP4(_ path: String) -> Bool {
        head(of: path, count: 8).map(InitSegment.mayStart) ?? false
    }

    /// Whether the file at `path` starts with an MPEG-TS sync byte, and another one a packet later.
    public static func looksLikeTransportStream(_ path: String) -> Bool { startsTransportStream(path, at: 0) }

    /// The same at `offset` (a byte range's start).
    public static func startsTransportStream(_ path: String, at offset: Int) -> Bool {
        head(of: path, count: 189, at: offset).map { $0[0] == 0x47 && $0[188] == 0x47 } ?? false
    }

    /// The `count` bytes of the file at `path` from `offset`, if it has that many.
    private static func head(of path: String, count: Int, at offset: Int = 0) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: count)
        guard head.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, count, off_t(offset)) }) == count else { return nil }
        return head
    }
}
