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
