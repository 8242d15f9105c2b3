import Glibc
import SKDBytes

/// Collects output in one large buffer and writes it to a file descriptor in large writes.
///
/// One `write(2)` per line would cost more than all the parsing; this sink makes one per 256 KiB.
/// It is a non-copyable value, owned by one writer, so that its bookkeeping costs no reference counting
/// or exclusivity checks per line. Call ``flush()`` before it goes away: a deinit cannot report errors.
///
/// With `background`, a second buffer and a thread of its own (``BackgroundWriter``) let the kernel copy
/// one buffer out while the caller fills the other: on two cores, writing a large playlist then costs the
/// caller almost nothing. The thread starts only when a first buffer is full: a library's many small
/// playlists are written without one (a thread per file cost more than the writes).
public struct OutputSink: ~Copyable {
    public static let bufferSize = 256 << 10

    public let fd: Int32
    /// Named in errors.
    public let path: String
    private var buffer: UnsafeMutableRawBufferPointer
    private var used = 0
    private var spare: UnsafeMutableRawBufferPointer?
    private var writer: BackgroundWriter?
    private let background: Bool

    public init(fd: Int32, path: String, background: Bool = false) {
        self.fd = fd
        self.path = path
        self.buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
        self.background = background
    }

    deinit {
        // The thread may still be writing one of the buffers: stop it before freeing them.
        writer?.stop()
        buffer.deallocate()
        spare?.deallocate()
    }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(IOError) {
        guard bytes.count > 0 else { return }
        if used + bytes.count > buffer.count { try handOff() }
        if bytes.count >= buffer.count {
            try writer?.drain()
            try writeFully(bytes)
            return
        }
        (buffer.baseAddress! + used).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        used += bytes.count
    }

    public mutating func write(_ bytes: [UInt8]) throws(IOError) {
        var failure: IOError?
        bytes.withUnsafeBytes { raw in
            do throws(IOError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public mutating func write(_ text: String) throws(IOError) {
        var text = text
        var failure: IOError?
        text.withUTF8 { utf8 in
            do throws(IOError) { try write(UnsafeRawBufferPointer(utf8)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public mutating func write(_ terminator: LineTerminator) throws(IOError) {
        switch terminator {
        case .none: return
        case .lf: try writeByte(0x0A)
        case .crlf:
            try writeByte(0x0D)
            try writeByte(0x0A)
        }
    }

    /// A line as it was read: its content and its own terminator.
    public mutating func write(_ line: RawLine) throws(IOError) {
        try write(line.bytes)
    }

    @inline(__always)
    private mutating func writeByte(_ byte: UInt8) throws(IOError) {
        if used == buffer.count { try handOff() }
        buffer[used] = byte
        used += 1
    }

    /// Writes out everything buffered (and, in the background, waits until it is written).
    public mutating func flush() throws(IOError) {
        try handOff(final: true)
        try writer?.drain()
    }

    /// Sends the buffer on: written now, or given to the background thread and swapped for the spare.
    /// The thread is started by the first full buffer, never by the final flush.
    private mutating func handOff(final: Bool = false) throws(IOError) {
        guard used > 0 else { return }
        if background, !final, writer == nil {
            writer = BackgroundWriter(fd: fd, path: path)
            spare = .allocate(byteCount: Self.bufferSize, alignment: 16)
        }
        let pending = UnsafeRawBufferPointer(rebasing: buffer[0..<used])
        used = 0
        guard let writer, let other = spare else {
            try writeFully(pending)
            return
        }
        try writer.submit(pending.baseAddress!, count: pending.count)
        spare = buffer
        buffer = other
    }

    private func writeFully(_ bytes: UnsafeRawBufferPointer) throws(IOError) {
        if let code = SystemCall.writeAll(fd, bytes) { throw IOError(path: path, operation: "write", errno: code) }
    }
}
