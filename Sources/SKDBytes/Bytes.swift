#if canImport(Glibc)
    import Glibc
#endif

/// The small byte-level helpers every module of skdpack needs, written once: hexadecimal digits, the
/// ASCII test of a buffer, and the system calls retried when a signal interrupts them (SIGINT and SIGTERM
/// are caught during a library run, so any read or write may return EINTR). No product vends this module.
///
/// The helpers other modules call at every line or key are `public` and `@inlinable`: this compiler inlines
/// a `package` function's body into another module only when it is public (a `package` one stays a call,
/// and a generic one runs unspecialised).
public enum Bytes {
    /// The value of a hexadecimal digit (either case), or `nil`.
    @inlinable
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// The value of the 16 hexadecimal digits (either case) at `offset` in `bytes`, or `nil` where one is not
    /// a digit: eight at a time, as a key id is read at every key period (a digit at a time cost a key map
    /// about 300 instructions a KEYID).
    @inlinable
    public static func hexWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64? {
        precondition(offset >= 0 && offset + 16 <= bytes.count, "16 digits in the buffer")
        guard let high = hexDigits(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
            let low = hexDigits(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    /// The value of eight hexadecimal digits, as loaded from memory (the first digit at the lowest address).
    @inlinable
    static func hexDigits(_ loaded: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs = ones &* 0x80
        // The first digit in the top byte, whatever the machine's order.
        let word = UInt64(bigEndian: loaded)
        guard word & highs == 0 else { return nil }
        // With every byte below 0x80, a byte's bit 7 of (x | 0x80) - n is set where x >= n, and of
        // (n | 0x80) - x where x <= n: no borrow crosses a byte either way.
        func inRange(_ word: UInt64, _ least: UInt64, _ most: UInt64) -> UInt64 {
            ((word | highs) &- (ones &* least)) & ((ones &* (most | 0x80)) &- word) & highs
        }
        let digit = inRange(word, 0x30, 0x39)
        // `| 0x20` makes A-F a-f, and nothing else a-f.
        let letter = inRange(word | (ones &* 0x20), 0x61, 0x66)
        guard digit | letter == highs else { return nil }
        // Each byte's value (a letter's low bits are 1-6: 9 more), then the nibbles packed pairwise.
        // (Swift gives `&` the precedence of `*`: each product in parentheses.)
        var packed = (word & (ones &* 0x0F)) &+ ((letter >> 7) &* 9)
        packed = (packed | packed >> 4) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        packed = (packed | packed >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: packed)
    }

    /// Where `needle` first starts in `bytes`, or `nil`: its first byte found by memchr, the rest compared
    /// there (no `String` search, whose first use loads the string-processing library's machinery).
    public static func offset(of needle: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count, let base = bytes.baseAddress else { return needle.isEmpty ? 0 : nil }
        let last = bytes.count - needle.count
        var from = 0
        while from <= last, let hit = memchr(base + from, Int32(first), last - from + 1) {
            let at = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
            from = at + 1
        }
        return nil
    }

    /// Whether no byte of `bytes` has its high bit set: eight bytes at a time, as it is asked of every key
    /// URI a migration matches and every line a validator reads.
    @inlinable
    public static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        var highs: UInt64 = 0
        while index + 8 <= bytes.count {
            highs |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        guard highs & 0x8080_8080_8080_8080 == 0 else { return false }
        while index < bytes.count {
            guard bytes[index] < 0x80 else { return false }
            index += 1
        }
        return true
    }

    @inlinable
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { isASCII(UnsafeRawBufferPointer(bytes)) }

    /// The same of a text's UTF-8 (a `String`'s or a `Substring`'s view), read in place where it is contiguous.
    @inlinable
    public static func isASCII<Text: Collection<UInt8>>(_ utf8: Text) -> Bool {
        utf8.withContiguousStorageIfAvailable { isASCII($0) } ?? utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `bytes` and `other` hold the same bytes: compared with memcmp, as a key's attributes are at
    /// every key period (a generic `elementsEqual`, over a `String`'s UTF-8 view above all, costs hundreds of
    /// instructions a comparison).
    @inlinable @inline(__always)
    public static func equal(_ bytes: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool {
        bytes.count == other.count && (bytes.isEmpty || memcmp(bytes.baseAddress!, other.baseAddress!, bytes.count) == 0)
    }

    /// Whether `bytes` are the UTF-8 of `text` (inlined: the reader asks it of every attribute name).
    @inlinable @inline(__always)
    public static func equal(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { wanted in
            bytes.count == 0 || memcmp(wanted.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? text.utf8.elementsEqual(bytes)
    }
}

/// System calls retried while a signal interrupts them.
package enum SystemCall {
    /// `call`'s result, `call` made again for as long as it fails with EINTR.
    @inlinable
    package static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// Writes all of `bytes` to `fd`; the `errno` of a write that failed, or `nil`.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = retrying { write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return nil
    }

    /// Why a file could not be read whole.
    package enum ReadFailure: Error {
        /// The operating system's reason.
        case system(Int32)
        /// It holds more than the limit.
        case tooLarge
    }

    /// The bytes of the file at `path`, whole, read in 64 KiB pieces; refused past `limit` bytes (what is
    /// read stops there, however large the file).
    package static func readAll(_ path: String, limit: Int = .max) -> Result<[UInt8], ReadFailure> {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(.system(errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = retrying { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            guard count >= 0 else { return .failure(.system(errno)) }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { return .failure(.tooLarge) }
        }
    }
}
