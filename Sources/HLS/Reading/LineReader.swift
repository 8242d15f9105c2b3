import CLineScan
import Glibc

/// How a line ended in the input. Kept per line, so a file that mixes LF and CRLF is written back as it was.
public enum LineTerminator: UInt8, Sendable, Codable {
    /// The last line of an input without a final newline.
    case none
    case lf
    case crlf

    /// How many bytes the terminator takes.
    @inlinable public var length: Int { Int(rawValue == 0 ? 0 : rawValue == 1 ? 1 : 2) }

    /// The bytes of the terminator.
    public var bytes: [UInt8] {
        switch self {
        case .none: []
        case .lf: [0x0A]
        case .crlf: [0x0D, 0x0A]
        }
    }
}

/// Which part of a line a ``RawLine`` holds.
///
/// A line longer than the reader's limit is never held whole: it arrives as a head, any number of middles,
/// and a tail, so that it can be passed through byte for byte while memory stays bounded.
public enum LinePart: Sendable {
    case whole
    case overlongHead
    case overlongMiddle
    case overlongTail

    /// The part that carries the line's terminator and completes the line.
    public var endsLine: Bool { self == .whole || self == .overlongTail }
}

/// One line of input as a view into the reader's buffer.
///
/// `content` excludes the terminator. It is valid only until the next call to ``LineReader/next()``:
/// copy what must outlive it. Holding byte ranges instead of a `String` per line is what keeps reading
/// fast and memory flat.
public struct RawLine {
    /// 1-based line number.
    public var number: Int
    /// Byte offset of `content`'s first byte from the start of the input.
    public var offset: Int
    public var content: UnsafeRawBufferPointer
    public var terminator: LineTerminator
    public var part: LinePart

    @inlinable
    public init(number: Int, offset: Int, content: UnsafeRawBufferPointer, terminator: LineTerminator, part: LinePart) {
        (self.number, self.offset, self.content, self.terminator, self.part) = (number, offset, content, terminator, part)
    }

    /// The line exactly as it was in the input: content and terminator, which are contiguous there.
    @inlinable
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: content.baseAddress, count: content.count + terminator.length)
    }
}

/// Whole lines, one after another, exactly as they are in the input (terminators included).
public struct LineRun {
    public var bytes: UnsafeRawBufferPointer
    /// The 1-based number of the run's first line.
    public var firstLine: Int
    public var lineCount: Int
    /// The byte offset of the run's first byte from the start of the input.
    public var offset: Int
}

/// What the run scanner found out about a line while looking for its end.
public struct LineTraits: Sendable {
    /// Printable ASCII throughout (the terminator aside).
    public var isClean: Bool
    /// Holds a `{` (a possible `{$variable}` reference).
    public var hasBrace: Bool
}

/// Decides, line by line, which lines may join a ``LineRun``.
public protocol LineRunFilter {
    /// Whether the line may join the run. Returning `false` must leave the filter as it was: the line is
    /// then read again, on its own, by ``LineReader/next()``.
    mutating func accept(_ content: UnsafeRawBufferPointer, traits: LineTraits, number: Int, offset: Int) -> Bool
}

/// Reads an input line by line, in large chunks, with memory bounded by the longest allowed line.
///
/// Lines end at LF; a CR right before the LF belongs to the terminator (CRLF). The last line may lack a
/// terminator. A line longer than `maximumLineLength` is delivered in parts (see ``LinePart``).
public struct LineReader: ~Copyable {
    /// The default limit on a line's length: far above any real playlist line (key URIs with tokens run
    /// to a few kilobytes), far below what would let one line exhaust memory.
    public static let defaultMaximumLineLength = 1 << 20
    /// The size of each read from the source.
    public static let chunkSize = 256 << 10

    public let maximumLineLength: Int
    /// Runs (``nextRun(_:)``) stop before a line that ends past this input offset, so that the caller, which
    /// sees that line alone, can stop there.
    public let maximumInputSize: Int
    private var source: any ByteSource
    /// The reader's own buffer, read into when the source does not lend its chunks.
    private let ownBuffer: UnsafeMutableRawBufferPointer
    /// The bytes being read: ``ownBuffer``, or the chunk the source lent last.
    private var buffer: UnsafeMutableRawBufferPointer
    /// Whether the source lends its chunks (``ByteSource/lendNext(carrying:)``): it can when it keeps room
    /// for the longest carry, a line just short of `maximumLineLength` (a longer one is passed on in parts).
    private let borrows: Bool
    /// Unconsumed bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// Input offset of `buffer[0]`.
    private var bufferOffset = 0
    private var reachedEnd = false
    private var lineNumber = 0
    /// Set while the parts of an overlong line are being delivered.
    private var inOverlongLine = false
    /// The size of the next read into ``ownBuffer``.
    private var readSize = 16 << 10

    public init(
        source: any ByteSource, maximumLineLength: Int = LineReader.defaultMaximumLineLength,
        maximumInputSize: Int = .max
    ) {
        self.source = source
        self.maximumLineLength = max(16, maximumLineLength)
        self.maximumInputSize = maximumInputSize
        self.ownBuffer = .allocate(byteCount: self.maximumLineLength + 2 + Self.chunkSize, alignment: 16)
        self.buffer = ownBuffer
        self.borrows = source.carryCapacity >= self.maximumLineLength + 2
    }

    deinit { ownBuffer.deallocate() }

    /// The next line or part of a line, or `nil` at the end of the input.
    public mutating func next() throws(IOError) -> RawLine? {
        while true {
            let base = buffer.baseAddress!
            if start < end, let found = memchr(base + start, 0x0A, end - start) {
                let newline = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                if !inOverlongLine, newline - start > maximumLineLength {
                    return takeOverlongPart(upTo: newline)
                }
                return takeLine(through: newline)
            }
            if reachedEnd {
                if start < end {
                    if !inOverlongLine, end - start > maximumLineLength { return takeOverlongPart(upTo: end) }
                    return takeUnterminatedLine()
                }
                // An overlong last line without a newline still gets its (empty) tail, which ends it.
                return inOverlongLine ? takeUnterminatedLine() : nil
            }
            if end - start > maximumLineLength {
                return takeOverlongPart(upTo: end)
            }
            try refill()
        }
    }

    /// The lines already buffered that `filter` accepts, as one run; `nil` if the next line is not accepted
    /// or not buffered whole. The lines of a playlist that need no attention (most of them) go through
    /// here at the cost of finding their ends, with no per-line value built.
    ///
    /// The bytes are classified 64 at a time (`line_scan_block`: where the LFs, CRs and `{`s are, and
    /// what is not printable ASCII), and the lines are then cut from the masks: a line costs a few bit
    /// operations and the filter's look at its first bytes, wherever it starts in a block.
    public mutating func nextRun<Filter: LineRunFilter>(_ filter: inout Filter) -> LineRun? {
        guard !inOverlongLine else { return nil }
        let base = UnsafeRawPointer(buffer.baseAddress!)
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let runStart = start
        // A line ending at or past this index would take the input past its size limit: the caller,
        // reading that line alone, stops there.
        let inputLimit = maximumInputSize - bufferOffset
        var lineStart = start
        var count = 0
        var block = start
        // Whether the part of the current line in earlier blocks has a byte needing attention, or a `{`.
        var earlierAttention = false
        var earlierBrace = false
        // Offsets and counts below are bounded by the buffer and the input size: wrapping arithmetic (&+)
        // spares each line its overflow checks, which also kept the compiler from sinking the filter's
        // unused arguments.
        scanning: while block < end {
            let masks = end - block >= 64 ? line_scan_block(bytes + block) : line_scan_partial(bytes + block, end - block)
            var newlines = masks.newlines
            // A CR right before its LF is the terminator's, not the content's. (One whose LF starts the
            // next block counts against the line, which is then read alone: still right, only slower.)
            var attention = masks.attention & ~newlines & ~(masks.returns & (newlines >> 1))
            var braces = masks.braces
            // Checked once a block rather than at each line: whether a line ending in it could be longer than
            // allowed or end past the input limit (lines only start later as the block is cut), whether any
            // of its bytes (or of the current line's earlier ones) needs attention or is a `{`, and whether it
            // holds a CR, which a line's terminator may then include (the CR before an LF at bit 0 is the
            // previous block's last byte, looked at in memory).
            let lastInBlock = block &+ 63
            let mayOverrun = lastInBlock &- lineStart > maximumLineLength || lastInBlock >= inputLimit
            let isPlain = attention == 0 && braces == 0 && !earlierAttention && !earlierBrace
            let hasReturns = masks.returns != 0
            while newlines != 0 {
                let bit = newlines.trailingZeroBitCount
                let newline = block &+ bit
                if mayOverrun, newline &- lineStart > maximumLineLength || newline >= inputLimit { break scanning }
                let before: UInt64 = (1 << bit) &- 1
                let traits =
                    isPlain
                    ? LineTraits(isClean: true, hasBrace: false)
                    : LineTraits(
                        isClean: !earlierAttention && attention & before == 0, hasBrace: earlierBrace || braces & before != 0)
                var contentEnd = newline
                if hasReturns || bit == 0, contentEnd > lineStart, bytes[contentEnd &- 1] == 0x0D { contentEnd &-= 1 }
                let content = UnsafeRawBufferPointer(start: base + lineStart, count: contentEnd &- lineStart)
                guard filter.accept(content, traits: traits, number: lineNumber &+ 1, offset: bufferOffset &+ lineStart)
                else { break scanning }
                lineNumber &+= 1
                count &+= 1
                lineStart = newline &+ 1
                // What is left of the masks belongs to the lines after this one.
                let through = before | (1 << bit)
                attention &= ~through
                braces &= ~through
                newlines &= newlines &- 1
                earlierAttention = false
                earlierBrace = false
            }
            earlierAttention = earlierAttention || attention != 0
            earlierBrace = earlierBrace || braces != 0
            block += 64
        }
        guard count > 0 else { return nil }
        start = lineStart
        return LineRun(
            bytes: UnsafeRawBufferPointer(start: base + runStart, count: lineStart - runStart),
            firstLine: lineNumber - count + 1, lineCount: count, offset: bufferOffset + runStart)
    }

    private mutating func takeLine(through newline: Int) -> RawLine {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        var contentEnd = newline
        var terminator = LineTerminator.lf
        if contentEnd > start, base.load(fromByteOffset: contentEnd - 1, as: UInt8.self) == 0x0D {
            contentEnd -= 1
            terminator = .crlf
        }
        let part: LinePart = inOverlongLine ? .overlongTail : .whole
        if !inOverlongLine { lineNumber += 1 }
        inOverlongLine = false
        let line = RawLine(
            number: lineNumber, offset: bufferOffset + start,
            content: UnsafeRawBufferPointer(start: base + start, count: contentEnd - start),
            terminator: terminator, part: part)
        start = newline + 1
        return line
    }

    private mutating func takeUnterminatedLine() -> RawLine {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        let part: LinePart = inOverlongLine ? .overlongTail : .whole
        if !inOverlongLine { lineNumber += 1 }
        inOverlongLine = false
        let line = RawLine(
            number: lineNumber, offset: bufferOffset + start,
            content: UnsafeRawBufferPointer(start: base + start, count: end - start),
            terminator: .none, part: part)
        start = end
        return line
    }

    /// Hands out `buffer[start..<limit]` as part of an overlong line, keeping a trailing CR back: it may be
    /// half of CRLF.
    private mutating func takeOverlongPart(upTo limit: Int) -> RawLine {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        var partEnd = limit
        if partEnd > start, base.load(fromByteOffset: partEnd - 1, as: UInt8.self) == 0x0D { partEnd -= 1 }
        let part: LinePart = inOverlongLine ? .overlongMiddle : .overlongHead
        if !inOverlongLine { lineNumber += 1 }
        inOverlongLine = true
        let line = RawLine(
            number: lineNumber, offset: bufferOffset + start,
            content: UnsafeRawBufferPointer(start: base + start, count: partEnd - start),
            terminator: .none, part: part)
        start = partEnd
        return line
    }

    /// Moves the unconsumed bytes to the front and reads one more chunk behind them; or borrows the
    /// source's next chunk with the unconsumed bytes in front of it.
    private mutating func refill() throws(IOError) {
        if borrows {
            let carry = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            guard let chunk = try source.lendNext(carrying: carry) else {
                reachedEnd = true
                return
            }
            // The carry's first byte keeps its input offset: it was buffer[start], it is chunk.buffer[chunk.start].
            bufferOffset += start - chunk.start
            buffer = chunk.buffer
            start = chunk.start
            end = chunk.end
            return
        }
        if start > 0 {
            let pending = end - start
            if pending > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            }
            bufferOffset += start
            start = 0
            end = pending
        }
        // A chunk at most, though the buffer has room for a longest line, and the first reads smaller (each
        // twice the one before): a reader that stops after a few lines (a plan reading a title's first key)
        // touches no more memory than it needs.
        let space = UnsafeMutableRawBufferPointer(rebasing: buffer[end..<min(buffer.count, end + readSize)])
        let count = try source.read(into: space)
        readSize = min(readSize * 2, Self.chunkSize)
        if count == 0 { reachedEnd = true } else { end += count }
    }
}
