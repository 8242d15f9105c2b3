/// What the reader knows about segments between lines: how many there were, whether an `EXTINF` or an
/// `EXT-X-STREAM-INF` waits for its URI, and the kind of playlist so far.
///
/// It is also the filter for runs of plain lines (``LineRunFilter``): an `EXTINF` that reads right, the
/// URI of a segment, a blank line or a comment, each clean UTF-8 without control characters. Anything
/// else, including every line with a problem, is left to the reader's line-by-line path, which reports it.
struct SegmentState: LineRunFilter {
    var kind: PlaylistKind = .unknown
    var segmentCount = 0
    /// The line and offset of an EXTINF still waiting for its URI.
    var pendingDuration: (line: Int, offset: Int)?
    /// The line and offset of an EXT-X-STREAM-INF still waiting for its URI.
    var pendingVariant: (line: Int, offset: Int)?
    /// Segments past this count are left to the line-by-line path, which stops the reading there.
    var segmentLimit = Int.max

    /// `#EXTINF:` as a little-endian word.
    private static let extInfPrefix = UInt64(littleEndian: 0x3A46_4E49_5458_4523)

    mutating func accept(_ content: UnsafeRawBufferPointer, traits: LineTraits, number: Int, offset: Int) -> Bool {
        let count = content.count
        guard count > 0 else { return number > 1 }
        guard number > 1, traits.isClean else { return false }
        let first = content.load(as: UInt8.self)
        if first == UInt8(ascii: "#") {
            if count >= 8, content.loadUnaligned(as: UInt64.self) == Self.extInfPrefix {
                guard pendingDuration == nil, kind != .master, Self.isSegmentDuration(content) else { return false }
                kind = .media
                pendingDuration = (number, offset)
                return true
            }
            // Other tags are read one by one; comments may join the run.
            return
                !(count >= 4 && content[1] == UInt8(ascii: "E") && content[2] == UInt8(ascii: "X")
                && content[3] == UInt8(ascii: "T"))
        }
        // A URI: only a segment's, after its EXTINF, without a {$variable} to check.
        guard pendingDuration != nil, pendingVariant == nil, !traits.hasBrace, segmentCount < segmentLimit else { return false }
        // A space around it is reported (HLS-whitespace): the line is read on its own.
        guard first != UInt8(ascii: " "), content.load(fromByteOffset: count - 1, as: UInt8.self) != UInt8(ascii: " ") else {
            return false
        }
        pendingDuration = nil
        segmentCount += 1
        return true
    }

    /// `#EXTINF:<digits>[.<digits>],…` (the title is free text).
    @inline(__always)
    private static func isSegmentDuration(_ content: UnsafeRawBufferPointer) -> Bool {
        var index = 8
        var digits = 0
        var points = 0
        while index < content.count {
            let byte = content.load(fromByteOffset: index, as: UInt8.self)
            if byte &- 0x30 < 10 {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                points += 1
            } else {
                return byte == UInt8(ascii: ",") && digits > 0 && points <= 1
            }
            index += 1
        }
        return false
    }
}
