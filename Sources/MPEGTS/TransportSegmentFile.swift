import SKDBytes

/// A transport stream that does not hold together: the byte offset (from the start of the file) of the
/// packet at fault, and why.
public struct TransportFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "packet at offset \(offset): \(reason)" }
}

/// Reading a transport stream segment from a file (or the byte range an `EXT-X-BYTERANGE` names): its
/// first and last 256 KiB at most.
public enum TransportSegmentFile {
    public typealias Failure = RangedFileFailure<TransportFormatError>

    public static func read(_ path: String, range: (length: Int, offset: Int)? = nil) throws(Failure) -> TransportSegment {
        let file = try RangedFile.opening(path, range: range, as: TransportFormatError.self)
        defer { file.close() }
        let start = file.start
        var reader = TransportSegmentReader(size: file.length) { (offset, count) throws(TransportFormatError) in
            do throws(RangedFile.ReadError) {
                return try file.read(offset, count)
            } catch {
                // Offsets from the range's start, as the reader's own (shifted below).
                throw TransportFormatError(offset: error.offset - start, reason: "cannot be read: \(error.reason)")
            }
        }
        do {
            var segment = try reader.run()
            if start > 0 { segment.shift(by: start) }
            return segment
        } catch {
            throw Failure(path: path, problem: .malformed(TransportFormatError(offset: error.offset + start, reason: error.reason)))
        }
    }
}

extension TransportSegment {
    /// Reads the transport stream segment in `bytes` (tests, the fuzz target).
    public static func parse(_ bytes: [UInt8]) throws(TransportFormatError) -> TransportSegment {
        var reader = TransportSegmentReader(size: bytes.count) { offset, count in Array(bytes[offset..<(offset + count)]) }
        return try reader.run()
    }

    /// Offsets counted from the file's start rather than the byte range's.
    mutating func shift(by start: Int) {
        syncLosses = syncLosses.map { $0 + start }
        continuityErrors = continuityErrors.map {
            ContinuityError(offset: $0.offset + start, pid: $0.pid, expected: $0.expected, found: $0.found)
        }
    }
}
