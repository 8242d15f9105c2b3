import Glibc
import MP4

/// Tells an fMP4 file from a playlist by its first box, so that `inspect` takes either.
public enum InitSegmentSniffer {
    /// Whether the file at `path` starts with an ISO BMFF box an init segment starts with.
    public static func looksLikeMP4(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8)
        guard head.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 8, 0) }) == 8 else { return false }
        return InitSegment.mayStart(with: head)
    }
}
