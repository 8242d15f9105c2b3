/// What RFC 8216 section 4.1 forbids in a line's bytes.
public enum EncodingProblem: Equatable, Sendable {
    /// A C0 or C1 control character (other than the CR and LF that end lines), or DEL, at a 0-based index.
    case controlCharacter(index: Int, scalar: UInt32)
    /// Bytes that are not UTF-8, starting at a 0-based index.
    case invalidUTF8(index: Int)
    /// A horizontal tab: a control character too, told apart because one element (EXT-X-SKIP's
    /// RECENTLY-REMOVED-DATERANGES) is a tab-delimited list.
    case tab(index: Int)
}

/// Checks that a line is UTF-8 without control characters.
///
/// Almost every playlist line is printable ASCII, so the scan tests eight bytes at a time for anything
/// outside 0x20...0x7E and only decodes UTF-8 byte by byte from the first byte that needs it.
public enum EncodingCheck {
    /// The first problem in `bytes`, or `nil` if the line is clean.
    public static func firstProblem(in bytes: UnsafeRawBufferPointer) -> EncodingProblem? {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        guard count >= 8 else { return slowScan(base, from: 0, count: count) }
        var index = 0
        while index + 8 <= count {
            if needsAttention(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                return slowScan(base, from: index, count: count)
            }
            index += 8
        }
        // The last, partial word: test the final eight bytes, which overlap bytes already found clean.
        if index < count, needsAttention(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) {
            return slowScan(base, from: index, count: count)
        }
        return nil
    }

    /// True if any byte of `word` is below 0x20, is 0x7F, or has its high bit set. (Also the checked
    /// writer's test of a quoted value's bytes, with ``has(_:in:)`` for the quote.)
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- ones &* 0x20) & ~word & highs
        // One test of the three masks: this runs on every word of every line read one by one.
        return (word & highs) | below20 | matches(0x7F, in: word) != 0
    }

    /// True if a byte of `word` is `byte`.
    @inline(__always)
    static func has(_ byte: UInt8, in word: UInt64) -> Bool { matches(byte, in: word) != 0 }

    /// Non-zero if a byte of `word` is `byte` (exact as a yes or no: a borrow only ever follows a true match).
    @inline(__always)
    private static func matches(_ byte: UInt8, in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let differences = word ^ (ones &* UInt64(byte))
        return (differences &- ones) & ~differences & 0x8080_8080_8080_8080
    }

    /// Reports the first problem, but a tab only if nothing worse follows it.
    private static func slowScan(_ base: UnsafeRawPointer, from start: Int, count: Int) -> EncodingProblem? {
        var index = start
        var firstTab: Int?
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte < 0x80 {
                if byte == 0x09 {
                    if firstTab == nil { firstTab = index }
                } else if byte < 0x20 || byte == 0x7F {
                    // A CR inside a line is a line-ending variant, not a control character (4.1 exempts it).
                    if byte != 0x0D { return .controlCharacter(index: index, scalar: UInt32(byte)) }
                }
                index += 1
                continue
            }
            guard let (scalar, length) = decodeMultiByte(base, at: index, count: count) else {
                return .invalidUTF8(index: index)
            }
            if (0x80...0x9F).contains(scalar) { return .controlCharacter(index: index, scalar: scalar) }
            index += length
        }
        return firstTab.map { .tab(index: $0) }
    }

    /// Decodes one multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and values past U+10FFFF.
    private static func decodeMultiByte(_ base: UnsafeRawPointer, at index: Int, count: Int) -> (UInt32, Int)? {
        let lead = base.load(fromByteOffset: index, as: UInt8.self)
        let length: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF:
            length = 2
            scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            length = 4
            scalar = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= count else { return nil }
        for offset in 1..<length {
            let next = base.load(fromByteOffset: index + offset, as: UInt8.self)
            guard next & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        switch length {
        case 3 where scalar < 0x800 || (0xD800...0xDFFF).contains(scalar): return nil
        case 4 where scalar < 0x10000 || scalar > 0x10FFFF: return nil
        default: return (scalar, length)
        }
    }
}
