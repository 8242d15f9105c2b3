import Glibc

/// Collects output in one large buffer and writes it to a file descriptor in large writes.
///
/// One `write(2)` per line would cost more than all the parsing; this sink makes one per 256 KiB.
/// It is a non-copyable value, owned by one writer, so that its bookkeeping costs no reference counting
/// or exclusivity checks per line. Call ``flush()`` before it goes away: a deinit cannot report errors.
public struct OutputSink: ~Copyable {
    public static let bufferSize = 256 << 10

    public let fd: Int32
    /// Named in errors.
    public let path: String
    private let buffer: UnsafeMutableRawBufferPointer
    private var used = 0

    public init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        self.buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(IOError) {
        guard bytes.count > 0 else { return }
        if used + bytes.count > buffer.count { try flush() }
        if bytes.count >= buffer.count {
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
        if used == buffer.count { try flush() }
        buffer[used] = byte
        used += 1
    }

    /// Writes out everything buffered.
    public mutating func flush() throws(IOError) {
        guard used > 0 else { return }
        let pending = UnsafeRawBufferPointer(rebasing: buffer[0..<used])
        used = 0
        try writeFully(pending)
    }

    private func writeFully(_ bytes: UnsafeRawBufferPointer) throws(IOError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw IOError(path: path, operation: "write", errno: errno)
            }
            offset += written
        }
    }
}
