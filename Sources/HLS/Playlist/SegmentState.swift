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

    @inline(__always)
    mutating func accept(_ content: UnsafeRawBufferPointer, traits: LineTraits, number: Int, offset: Int) -> Bool {
        let count = content.count
        guard count > 0 else { return number > 1 }
        guard number > 1, traits.isClean else { return false }
        let first = content.load(as: UInt8.self)
        if first == UInt8(ascii: "#") {
            if count >= 8, content.loadUnaligned(as: UInt64.self) == TagParser.extInfPrefix {
                // After an EXT-X-STREAM-INF still waiting for its URI, the tag is read on its own, which
                // reports that variant as having none (a run would leave it waiting, and the segment's URI
                // would then be taken for the variant's).
                // (A title with a `{$variable}` is read on its own too: what is judged of it is the line substituted.)
                guard pendingDuration == nil, pendingVariant == nil, kind != .master, !traits.hasBrace, Self.isSegmentDuration(content)
                else {
                    return false
                }
                // As the line-by-line path notes it: a playlist that holds master playlist tags stays mixed.
                kind.note(.mediaSegment)
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
        segmentCount &+= 1
        return true
    }

    /// `#EXTINF:<digits>[.<digits>],…` (the title is free text).
    ///
    /// Most durations and their comma fit in the eight bytes after the colon (`6.000,`, `10.010,`): those
    /// are told apart a word at a time, the rest byte by byte. The line is printable ASCII (the run asks
    /// for clean lines), so no byte has its high bit set and the per-byte sums below cannot carry. A line
    /// shorter than 16 bytes is read as its last eight, shifted so that the bytes past its end are zeros:
    /// neither digits nor points, and no comma.
    @inline(__always)
    private static func isSegmentDuration(_ content: UnsafeRawBufferPointer) -> Bool {
        let count = content.count
        if count > 8 {
            let word =
                count >= 16
                ? content.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                : content.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) >> (8 &* (16 &- count))
            let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let highs: UInt64 = 0x8080_8080_8080_8080
            // 0x80 in each byte that is not a digit: b ^ 0x30 is 0...9 for digits, and 10 + 0x76 reaches 0x80.
            let notDigit = ((word ^ 0x3030_3030_3030_3030) &+ 0x7676_7676_7676_7676) & highs
            // 0x80 in each byte that is a '.', exactly (no borrow between bytes).
            let pointBits = word ^ 0x2E2E_2E2E_2E2E_2E2E
            let point = ~(((pointBits & lows) &+ lows) | pointBits | lows)
            let other = notDigit & ~point
            if other != 0 {
                let end = other.trailingZeroBitCount  // bit 7 of the first byte neither digit nor point
                let pointsBefore = point & ((1 << (end &- 7)) &- 1)
                // At most one point (no bit left once the lowest is cleared), and a digit besides it. Not
                // nonzeroBitCount: without POPCNT in the baseline x86-64 it is a dozen instructions.
                let atMostOnePoint = pointsBefore & (pointsBefore &- 1) == 0
                let bytesBefore = end / 8
                return (word >> (end &- 7)) & 0xFF == UInt64(UInt8(ascii: ",")) && atMostOnePoint
                    && bytesBefore > (pointsBefore == 0 ? 0 : 1)
            }
        }
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
