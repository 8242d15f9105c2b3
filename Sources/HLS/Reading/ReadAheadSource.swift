import Glibc

/// Reads a regular file on a thread of its own, one chunk ahead of the caller, so that the kernel's copy
/// of the input overlaps the parsing instead of preceding it.
///
/// Two chunk buffers: the thread fills one while the caller reads the other. A ``LineReader`` borrows
/// them (``lendNext(carrying:)``): each has room in front of its chunk for the line cut by the edge of
/// the chunk before, so the chunk itself is never copied (copying it out cost `cat` of a 200,000-segment
/// playlist 8 MB of `memcpy` on the parsing thread). Other callers copy out with ``read(into:)``.
/// For regular files only (a read from a pipe could block the thread forever at teardown);
/// ``FileDescriptorSource/openForStreaming(path:)`` picks it for files large enough to be worth a thread.
public final class ReadAheadSource: ByteSource, @unchecked Sendable {
    // @unchecked: the buffer states are read and written under `lock`; a buffer's bytes belong to the
    // thread while it is `.filling` and to the caller while it is `.full` (lent or not).
    private enum State {
        case empty
        case filling
        case full(Int)
        case end
        case failed(IOError)
    }

    public let path: String
    public var readsAhead: Bool { true }
    /// Room for the longest line a ``LineReader`` reads whole by default, and its terminator.
    public var carryCapacity: Int { Self.carryCapacity }
    static let carryCapacity = LineReader.defaultMaximumLineLength + 2
    private let source: FileDescriptorSource
    private let buffers: [UnsafeMutableRawBufferPointer]
    private var states: [State] = [.empty, .empty]
    private let lock = ConditionLock()
    private var thread = pthread_t()
    private var stopping = false
    /// The buffer the caller reads from next (or, copying, reads from), and how far it copied.
    private var current = 0
    private var offset = 0
    /// The buffer lent to the caller, which the thread may not fill until the next is lent.
    private var lent: Int?

    init(source: FileDescriptorSource) {
        self.source = source
        self.path = source.path
        // The carry room is touched only as far as a carry reaches: it costs address space, not memory.
        self.buffers = (0..<2).map { _ in .allocate(byteCount: Self.carryCapacity + LineReader.chunkSize, alignment: 16) }
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                let reader = Unmanaged<ReadAheadSource>.fromOpaque(context!).takeRetainedValue()
                reader.loop()
                return nil
            }, context)
    }

    /// Stops the thread (after the read in flight) and frees the buffers. Called by whoever created the
    /// source when done; the thread holds the source alive until then.
    public func close() {
        lock.lock()
        stopping = true
        lock.broadcast()
        lock.unlock()
        pthread_join(thread, nil)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    public func read(into destination: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard let count = try waitForCurrent() else { return 0 }
        let take = min(destination.count, count - offset)
        destination.baseAddress!.copyMemory(from: buffers[current].baseAddress! + Self.carryCapacity + offset, byteCount: take)
        offset += take
        if offset == count {
            states[current] = .empty
            current ^= 1
            offset = 0
            lock.broadcast()
        }
        return take
    }

    public func lendNext(carrying carry: UnsafeRawBufferPointer) throws(IOError) -> LentChunk? {
        precondition(carry.count <= Self.carryCapacity, "a carry beyond the room kept for it")
        lock.lock()
        defer { lock.unlock() }
        guard let count = try waitForCurrent() else { return nil }
        let buffer = buffers[current]
        let start = Self.carryCapacity - carry.count
        if carry.count > 0 { (buffer.baseAddress! + start).copyMemory(from: carry.baseAddress!, byteCount: carry.count) }
        if let lent {
            states[lent] = .empty
            lock.broadcast()
        }
        lent = current
        current ^= 1
        return LentChunk(buffer: buffer, start: start, end: Self.carryCapacity + count)
    }

    /// Waits (`lock` held) until the thread has filled buffer `current`, and returns how many bytes it
    /// holds; `nil` at the end of the input. Throws the thread's read error.
    private func waitForCurrent() throws(IOError) -> Int? {
        while true {
            switch states[current] {
            case .empty, .filling: lock.wait()
            case .end: return nil
            case .failed(let error): throw error
            case .full(let count): return count
            }
        }
    }

    private func loop() {
        var next = 0
        lock.lock()
        while true {
            while !stopping, case .full = states[next] { lock.wait() }
            if stopping { break }
            guard case .empty = states[next] else { break }
            states[next] = .filling
            lock.unlock()
            let result = fill(UnsafeMutableRawBufferPointer(rebasing: buffers[next][Self.carryCapacity...]))
            lock.lock()
            switch result {
            case .success(0): states[next] = .end
            case .success(let count): states[next] = .full(count)
            case .failure(let error): states[next] = .failed(error)
            }
            lock.broadcast()
            if case .full = states[next] { next ^= 1 } else { break }
        }
        lock.unlock()
    }

    /// Fills a buffer as far as the file goes.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, IOError> {
        var filled = 0
        while filled < buffer.count {
            do {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if count == 0 { break }
                filled += count
            } catch {
                return .failure(error)
            }
        }
        return .success(filled)
    }
}

extension FileDescriptorSource {
    /// The size from which a regular file is read ahead on a thread. Below it, the thread's start and the
    /// hand-offs between threads cost more than the overlap gains (measured on a 0.8 MB playlist: 0.4 ms
    /// of a 6 ms run).
    public static let readAheadThreshold = 8 * LineReader.chunkSize

    /// The source to stream a playlist from: a ``ReadAheadSource`` for a regular file of at least
    /// ``readAheadThreshold`` bytes, where a thread pays for itself; the file itself otherwise. Call
    /// ``finish(_:)`` when done.
    public static func openForStreaming(path: String) throws(IOError) -> any ByteSource {
        let file = try open(path: path)
        var info = stat()
        guard fstat(file.fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= readAheadThreshold else {
            return file
        }
        return ReadAheadSource(source: file)
    }

    /// Whether `source` is large enough to be read ahead: the same playlist is then worth writing on a
    /// thread of its own too (``OutputSink``'s `background`).
    public static func isLarge(_ source: any ByteSource) -> Bool { source.readsAhead }

    /// Releases what ``openForStreaming(path:)`` set up.
    public static func finish(_ source: any ByteSource) {
        guard source.readsAhead else { return }
        (source as? ReadAheadSource)?.close()
    }
}
