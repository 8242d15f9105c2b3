import Glibc

/// How a line ended in the input. Kept per line, so a file that mixes LF and CRLF is written back as it was.
public enum LineTerminator: UInt8, Sendable, Codable {
    /// The last line of an input without a final newline.
    case none
    case lf
    case crlf

    /// How many bytes the terminator takes.
    public var length: Int { Int(rawValue == 0 ? 0 : rawValue == 1 ? 1 : 2) }

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

    /// The line exactly as it was in the input: content and terminator, which are contiguous there.
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
    private let buffer: UnsafeMutableRawBufferPointer
    /// Unconsumed bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// Input offset of `buffer[0]`.
    private var bufferOffset = 0
    private var reachedEnd = false
    private var lineNumber = 0
    /// Set while the parts of an overlong line are being delivered.
    private var inOverlongLine = false

    public init(
        source: any ByteSource, maximumLineLength: Int = LineReader.defaultMaximumLineLength,
        maximumInputSize: Int = .max
    ) {
        self.source = source
        self.maximumLineLength = max(16, maximumLineLength)
        self.maximumInputSize = maximumInputSize
        self.buffer = .allocate(byteCount: self.maximumLineLength + 2 + Self.chunkSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

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
    public mutating func nextRun<Filter: LineRunFilter>(_ filter: inout Filter) -> LineRun? {
        guard !inOverlongLine else { return nil }
        let base = UnsafeRawPointer(buffer.baseAddress!)
        let runStart = start
        var cursor = start
        var count = 0
        while let (newline, traits) = Self.scanLine(base, from: cursor, to: end) {
            if newline - cursor > maximumLineLength || bufferOffset + newline >= maximumInputSize { break }
            var contentEnd = newline
            if contentEnd > cursor, base.load(fromByteOffset: contentEnd - 1, as: UInt8.self) == 0x0D {
                contentEnd -= 1
            }
            let content = UnsafeRawBufferPointer(start: base + cursor, count: contentEnd - cursor)
            guard filter.accept(content, traits: traits, number: lineNumber + 1, offset: bufferOffset + cursor)
            else { break }
            lineNumber += 1
            count += 1
            cursor = newline + 1
        }
        guard count > 0 else { return nil }
        start = cursor
        return LineRun(
            bytes: UnsafeRawBufferPointer(start: base + runStart, count: cursor - runStart),
            firstLine: lineNumber - count + 1, lineCount: count, offset: bufferOffset + runStart)
    }

    /// Finds the LF ending the line at `from`, eight bytes at a time, noting on the way whether the line
    /// is printable ASCII and whether it holds a `{`. One pass instead of three (memchr, encoding check,
    /// brace search): this is the innermost loop of reading.
    @inline(__always)
    private static func scanLine(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> (Int, LineTraits)? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = start
        var hasBrace = false
        while position + 8 <= end {
            let word = base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let braces = word ^ (ones &* 0x7B)
            if (braces &- ones) & ~braces & highs != 0 { hasBrace = true }
            // The lowest flagged byte is exact in each of these masks (borrows only run upwards).
            let control = (word &- ones &* 0x20) & ~word & highs
            let deletes = word ^ (ones &* 0x7F)
            let attention = control | (word & highs) | ((deletes &- ones) & ~deletes & highs)
            if attention != 0 {
                let index = position + attention.trailingZeroBitCount / 8
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == 0x0A { return (index, LineTraits(isClean: true, hasBrace: hasBrace)) }
                if byte == 0x0D, index + 1 < end, base.load(fromByteOffset: index + 1, as: UInt8.self) == 0x0A {
                    return (index + 1, LineTraits(isClean: true, hasBrace: hasBrace))
                }
                return slowScanLine(base, from: start, to: end)
            }
            position += 8
        }
        return slowScanLine(base, from: start, to: end)
    }

    /// The same, byte by byte: short tails, and lines with anything but printable ASCII.
    private static func slowScanLine(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> (Int, LineTraits)? {
        guard start < end, let found = memchr(base + start, 0x0A, end - start) else { return nil }
        let newline = base.distance(to: UnsafeRawPointer(found))
        var contentEnd = newline
        if contentEnd > start, base.load(fromByteOffset: contentEnd - 1, as: UInt8.self) == 0x0D { contentEnd -= 1 }
        var clean = true
        var hasBrace = false
        for index in start..<contentEnd {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte < 0x20 || byte >= 0x7F { clean = false }
            if byte == 0x7B { hasBrace = true }
        }
        return (newline, LineTraits(isClean: clean, hasBrace: hasBrace))
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

    /// Moves the unconsumed bytes to the front and reads one more chunk behind them.
    private mutating func refill() throws(IOError) {
        if start > 0 {
            let pending = end - start
            if pending > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            }
            bufferOffset += start
            start = 0
            end = pending
        }
        let space = UnsafeMutableRawBufferPointer(rebasing: buffer[end..<buffer.count])
        let count = try source.read(into: space)
        if count == 0 { reachedEnd = true } else { end += count }
    }
}
