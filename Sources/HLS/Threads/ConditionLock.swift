import Glibc

/// A mutex and a condition variable, for the two threads that hand buffers to the caller and back
/// (``ReadAheadSource``, ``BackgroundWriter``): `Synchronization.Mutex` has no way to wait for a condition.
///
/// The pthread objects live on the heap, where they never move: a `pthread_mutex_t` stored in a Swift
/// property and passed as `&property` may be handed to C as the address of a temporary copy.
final class ConditionLock: @unchecked Sendable {
    // @unchecked: the pthread objects are what makes the callers' state safe to share.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until another thread calls ``broadcast()``, then takes it again. Called locked.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every thread waiting. Called locked.
    func broadcast() { pthread_cond_broadcast(condition) }
}
