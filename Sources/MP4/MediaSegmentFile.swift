import SKDBytes

/// Reading a media segment from a file: the whole file, or the byte range an `EXT-X-BYTERANGE` names. Only
/// box headers and the boxes that describe samples are read (`pread` at their offsets); `mdat` is skipped.
public enum MediaSegmentFile {
    /// Why a media segment could not be read, with the file's path.
    public typealias Failure = RangedFileFailure<MP4FormatError>

    /// The segment at `path`, or its `length` bytes from `offset`; `defaults` are the init segment's
    /// `trex` values for what the fragments leave out.
    public static func read(
        _ path: String, range: (length: Int, offset: Int)? = nil, defaults: [FragmentDefaults] = []
    ) throws(Failure) -> MediaSegment {
        let file = try RangedFile.opening(path, range: range, as: MP4FormatError.self)
        defer { file.close() }
        // A read the system refuses (an I/O error, a file cut short while read) is a finding at its offset.
        var walk = MediaSegmentWalk(size: file.length, baseOffset: file.start, defaults: defaults) {
            (offset, length) throws(MP4FormatError) in
            do throws(RangedFile.ReadError) {
                return try file.read(offset, length)
            } catch {
                throw MP4FormatError(offset: error.offset, boxPath: [], reason: "cannot be read: \(error.reason)")
            }
        }
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
