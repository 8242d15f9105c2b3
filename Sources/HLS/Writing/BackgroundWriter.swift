import Glibc

/// A thread that writes full buffers to a file descriptor while the caller fills the next one, so that
/// the kernel's copy of the output overlaps the parsing instead of following it.
///
/// One buffer at a time is in flight: ``submit(_:count:)`` waits for the previous one to be written, so a
/// caller with two buffers can always fill one while the other is written. Errors are kept and thrown by
/// the next call.
final class BackgroundWriter: @unchecked Sendable {
    // @unchecked: every mutable field is read and written under `mutex`.
    let fd: Int32
    let path: String
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var thread = pthread_t()
    private var pending: (base: UnsafeRawPointer, count: Int)?
    private var failure: IOError?
    private var stopping = false

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            let writer = Unmanaged<BackgroundWriter>.fromOpaque(context!).takeRetainedValue()
            writer.loop()
            return nil
        }, context)
    }

    /// Hands `count` bytes at `base` to the thread; the memory must stay untouched until the next call
    /// returns. Waits while the previous buffer is still being written.
    func submit(_ base: UnsafeRawPointer, count: Int) throws(IOError) {
        pthread_mutex_lock(&mutex)
        while pending != nil, failure == nil { pthread_cond_wait(&condition, &mutex) }
        if let failure {
            pthread_mutex_unlock(&mutex)
            throw failure
        }
        pending = (base, count)
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until everything submitted is written.
    func drain() throws(IOError) {
        pthread_mutex_lock(&mutex)
        while pending != nil, failure == nil { pthread_cond_wait(&condition, &mutex) }
        let failure = self.failure
        pthread_mutex_unlock(&mutex)
        if let failure { throw failure }
    }

    /// Stops the thread once everything submitted is written.
    func stop() {
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
        pthread_join(thread, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    private func loop() {
        pthread_mutex_lock(&mutex)
        while true {
            while pending == nil, !stopping { pthread_cond_wait(&condition, &mutex) }
            guard let (base, count) = pending else { break }
            pthread_mutex_unlock(&mutex)
            let error = writeFully(base, count)
            pthread_mutex_lock(&mutex)
            if let error, failure == nil { failure = error }
            pending = nil
            pthread_cond_broadcast(&condition)
        }
        pthread_mutex_unlock(&mutex)
    }

    private func writeFully(_ base: UnsafeRawPointer, _ count: Int) -> IOError? {
        var offset = 0
        while offset < count {
            let written = Glibc.write(fd, base + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return IOError(path: path, operation: "write", errno: errno)
            }
            offset += written
        }
        return nil
    }
}
