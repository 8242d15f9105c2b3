import Glibc
import SKDBytes

/// A thread that writes full buffers to a file descriptor while the caller fills the next one, so that
/// the kernel's copy of the output overlaps the parsing instead of following it.
///
/// One buffer at a time is in flight: ``submit(_:count:)`` waits for the previous one to be written, so a
/// caller with two buffers can always fill one while the other is written. Errors are kept and thrown by
/// the next call.
final class BackgroundWriter: @unchecked Sendable {
    // @unchecked: every mutable field is read and written under `lock`.
    let fd: Int32
    let path: String
    private let lock = ConditionLock()
    private var thread = pthread_t()
    private var pending: (base: UnsafeRawPointer, count: Int)?
    private var failure: IOError?
    private var stopping = false

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                let writer = Unmanaged<BackgroundWriter>.fromOpaque(context!).takeRetainedValue()
                writer.loop()
                return nil
            }, context)
    }

    /// Hands `count` bytes at `base` to the thread; the memory must stay untouched until the next call
    /// returns. Waits while the previous buffer is still being written.
    func submit(_ base: UnsafeRawPointer, count: Int) throws(IOError) {
        lock.lock()
        while pending != nil, failure == nil { lock.wait() }
        if let failure {
            lock.unlock()
            throw failure
        }
        pending = (base, count)
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until everything submitted is written.
    func drain() throws(IOError) {
        lock.lock()
        while pending != nil, failure == nil { lock.wait() }
        let failure = self.failure
        lock.unlock()
        if let failure { throw failure }
    }

    /// Stops the thread once everything submitted is written.
    func stop() {
        lock.lock()
        stopping = true
        lock.broadcast()
        lock.unlock()
        pthread_join(thread, nil)
    }

    private func loop() {
        lock.lock()
        while true {
            while pending == nil, !stopping { lock.wait() }
            guard let (base, count) = pending else { break }
            lock.unlock()
            let error = writeFully(base, count)
            lock.lock()
            if let error, failure == nil { failure = error }
            pending = nil
            lock.broadcast()
        }
        lock.unlock()
    }

    private func writeFully(_ base: UnsafeRawPointer, _ count: Int) -> IOError? {
        SystemCall.writeAll(fd, UnsafeRawBufferPointer(start: base, count: count)).map {
            IOError(path: path, operation: "write", errno: $0)
        }
    }
}
