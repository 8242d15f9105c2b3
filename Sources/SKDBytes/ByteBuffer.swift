#if canImport(Glibc)
    import Glibc
#endif

/// Bytes built up again and again (a key URI rendered, a key line rewritten, a key period held): memory of
/// its own that keeps its size from one use to the next, and the length of what it holds. Appending is a
/// memcpy into room there is already, emptying sets the length to 0, and the bytes are read in place
/// (``bytes``): `Array.append(contentsOf:)` costs some 90 instructions and `removeAll(keepingCapacity:)`
/// 60, which a key period made two dozen times. (Public and inlinable for the reason ``Bytes`` says.)
///
/// A value: a copy shares the memory until either is changed (copy on write).
public struct ByteBuffer: @unchecked Sendable {
    // @unchecked: the memory is shared between copies only while none of them writes (``makeRoom(for:)``
    // copies it first), as an array's is.
    @usableFromInline
    final class Storage {
        @usableFromInline let base: UnsafeMutableRawPointer
        @usableFromInline let capacity: Int

        @usableFromInline
        init(capacity: Int) {
            self.capacity = capacity
            base = malloc(capacity)!
        }

        deinit { free(base) }
    }

    @usableFromInline var storage: Storage?
    /// How many bytes the buffer holds.
    @inlinable public var count: Int { length }
    @usableFromInline var length = 0

    @inlinable public init() {}

    /// The bytes held, read in place: valid until the buffer (or a copy sharing its memory) next changes.
    @inlinable public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage?.base, count: count) }

    /// The same typed as UTF-8 code units.
    @inlinable public var utf8: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage?.base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The bytes held, as an array of their own.
    public var array: [UInt8] { Array(utf8) }

    /// The bytes held, as text (invalid UTF-8 replaced, as `String(decoding:as:)` does).
    public var text: String { String(decoding: utf8, as: UTF8.self) }

    /// Forgets the bytes, keeping the memory.
    @inlinable public mutating func removeAll() { length = 0 }

    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let base = makeRoom(for: bytes.count)
        memcpy(base + length, source, bytes.count)
        length += bytes.count
    }

    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        let base = makeRoom(for: 1)
        base.storeBytes(of: byte, toByteOffset: length, as: UInt8.self)
        length += 1
    }

    public mutating func append(contentsOf bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    /// Appends `count` bytes that `write` writes into the room made for them (it must write all of them):
    /// a line spliced from several pieces takes its room once, not a check of it a piece.
    @inlinable
    public mutating func append(count: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) {
        guard count > 0 else { return }
        let base = makeRoom(for: count)
        write(UnsafeMutableRawBufferPointer(start: base + length, count: count))
        length += count
    }

    /// The memory, with room for `more` bytes after the ones held, its own (not shared with a copy).
    @inlinable
    mutating func makeRoom(for more: Int) -> UnsafeMutableRawPointer {
        // Asked before anything else holds the memory: a reference held here would make it shared.
        if isKnownUniquelyReferenced(&storage), let current = storage, current.capacity >= count + more { return current.base }
        return grow(for: more)
    }

    /// New memory, doubling: appends cost no allocation once the buffer has held its longest content.
    @usableFromInline
    mutating func grow(for more: Int) -> UnsafeMutableRawPointer {
        let grown = Storage(capacity: Swift.max(count + more, 2 * (storage?.capacity ?? 0), 64))
        if let old = storage, count > 0 { memcpy(grown.base, old.base, count) }
        storage = grown
        return grown.base
    }
}
