import SKDBytes

/// Reading an init segment from a file: the whole file, or the byte range an `EXT-X-MAP` `BYTERANGE` names,
/// never more than a limit (an init segment is a few kilobytes; a 4 GB media file named by mistake must not
/// be read into memory).
public enum InitSegmentFile {
    /// 16 MiB: far above any real init segment (a few KB), far below what would hurt.
    public static let defaultLimit = 16 << 20

    /// Why an init segment could not be read, with the file's path.
    public typealias Failure = RangedFileFailure<MP4FormatError>

    /// The init segment at `path`, or in its `length` bytes from `offset` when a range is given.
    public static func read(
        _ path: String, range: (length: Int, offset: Int)? = nil, limit: Int = defaultLimit
    ) throws(Failure) -> InitSegment {
        let bytes = try contents(path, range: range, limit: limit)
        do {
            return try InitSegment.parse(bytes, baseOffset: range?.offset ?? 0)
        } catch {
            throw Failure(path: path, problem: .malformed(error))
        }
    }

    /// The bytes to parse, at most `limit` of them.
    static func contents(_ path: String, range: (length: Int, offset: Int)?, limit: Int) throws(Failure) -> [UInt8] {
        let file = try RangedFile.opening(path, range: range, as: MP4FormatError.self)
        defer { file.close() }
        guard file.length <= limit else { throw Failure(path: path, problem: .tooLarge(size: file.length, limit: limit)) }
        do throws(RangedFile.ReadError) {
            return try file.read(0, file.length)
        } catch {
            throw Failure(path: path, problem: .unreadable(error.reason))
        }
    }
}
