import Glibc
import SKDBytes

/// Something a playlist's bytes can be read from in chunks: a file, a pipe, standard input, or memory.
public protocol ByteSource {
    /// Fills the start of `buffer` and returns how many bytes it wrote; 0 at the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int

    /// Whether a thread reads ahead of the caller (``ReadAheadSource``): asked of the source rather than
    /// found by a cast, which costs a per-run type lookup (80 µs of a 5 ms `apply`).
    var readsAhead: Bool { get }

    /// How many bytes a source that reads into buffers of its own keeps free in front of each: a reader
    /// whose unread bytes never exceed it may take the chunks by ``lendNext(carrying:)``. 0 (the default):
    /// the source lends nothing and is read by ``read(into:)``.
    var carryCapacity: Int { get }

    /// The next chunk read, in a buffer of the source's own with `carry` (at most ``carryCapacity`` bytes:
    /// the caller's unread bytes, a line cut by the chunk's edge) copied just in front of it, so that the
    /// caller reads on without copying the chunk. The buffer lent before goes back to the source, so
    /// `carry` may lie in it. `nil` at the end of the input, when the buffer lent before stays the
    /// caller's. A caller reads a source by lending or by ``read(into:)``, never both.
    mutating func lendNext(carrying carry: UnsafeRawBufferPointer) throws(IOError) -> LentChunk?
}

/// A chunk lent by a ``ByteSource``: `buffer[start..<end]` is the carry followed by the bytes read.
public struct LentChunk {
    public var buffer: UnsafeMutableRawBufferPointer
    public var start: Int
    public var end: Int
}

extension ByteSource {
    public var readsAhead: Bool { false }
    public var carryCapacity: Int { 0 }
    public mutating func lendNext(carrying carry: UnsafeRawBufferPointer) throws(IOError) -> LentChunk? { nil }
}

/// A failure of the operating system to read or write, with the path it concerned.
public struct IOError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errno: Int32
    /// Said instead of the system's text for `errno`, where skdpack knows better why.
    public var reason: String?

    public init(path: String, operation: String, errno: Int32, reason: String? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.reason = reason
    }

    public var description: String {
        "\(path): cannot \(operation): \(reason ?? String(cString: strerror(errno)))"
    }
}

/// Reads from an open file descriptor. It does not own the descriptor unless created by ``open(path:)``.
public final class FileDescriptorSource: ByteSource {
    public let fd: Int32
    public let path: String
    private let ownsDescriptor: Bool

    public init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        self.ownsDescriptor = false
    }

    private init(ownedFD fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        self.ownsDescriptor = true
    }

    /// Opens `path` for reading; `-` is standard input.
    public static func open(path: String) throws(IOError) -> FileDescriptorSource {
        if path == "-" { return FileDescriptorSource(fd: 0, path: "-") }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw IOError(path: path, operation: "open for reading", errno: Glibc.errno) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw IOError(path: path, operation: "read a directory as a playlist", errno: EISDIR)
        }
        return FileDescriptorSource(ownedFD: fd, path: path)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
        let count = SystemCall.retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        guard count >= 0 else { throw IOError(path: path, operation: "read", errno: Glibc.errno) }
        return count
    }
}

/// Serves bytes already in memory: tests, fuzzing, and playlists that arrive as a value.
public struct MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0
    /// The most a single read returns, to exercise chunk boundaries in tests.
    private let maximumRead: Int
    /// Set when the source lends its chunks as ``ReadAheadSource`` does: in tests and fuzzing, so that the
    /// line reader's borrowing meets chunk edges of every size.
    private let lent: LentBuffers?

    /// `lending`: hand out chunks by ``lendNext(carrying:)``, in buffers of the source's own, rather than be
    /// read with ``read(into:)``.
    public init(_ bytes: [UInt8], maximumRead: Int = .max, lending: Bool = false) {
        self.bytes = bytes
        self.maximumRead = max(1, maximumRead)
        self.lent = lending ? LentBuffers() : nil
    }

    public var carryCapacity: Int { lent == nil ? 0 : .max / 2 }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
        let count = min(buffer.count, bytes.count - position, maximumRead)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
    }

    public mutating func lendNext(carrying carry: UnsafeRawBufferPointer) throws(IOError) -> LentChunk? {
        guard let lent else { return nil }
        let count = min(bytes.count - position, maximumRead)
        guard count > 0 else { return nil }
        // The other buffer than the one lent last, where `carry` may lie.
        let buffer = lent.next(capacity: carry.count + count)
        if carry.count > 0 { buffer.baseAddress!.copyMemory(from: carry.baseAddress!, byteCount: carry.count) }
        bytes.withUnsafeBytes { source in
            (buffer.baseAddress! + carry.count).copyMemory(from: source.baseAddress! + position, byteCount: count)
        }
        position += count
        return LentChunk(buffer: buffer, start: 0, end: carry.count + count)
    }
}

/// The two buffers a lending ``MemorySource`` takes turns with, each as large as its largest chunk.
private final class LentBuffers {
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var last = 1

    /// The buffer not lent last, with room for `capacity` bytes.
    func next(capacity: Int) -> UnsafeMutableRawBufferPointer {
        last ^= 1
        if buffers.count < 2 { buffers = [.allocate(byteCount: 16, alignment: 16), .allocate(byteCount: 16, alignment: 16)] }
        if buffers[last].count < capacity {
            let size = max(capacity, 2 * buffers[last].count)
            buffers[last].deallocate()
            buffers[last] = .allocate(byteCount: size, alignment: 16)
        }
        return buffers[last]
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
