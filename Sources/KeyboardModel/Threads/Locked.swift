#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a lock: state that several threads share (the host API's table, a child's
/// clock, the registry of extension work).
///
/// A pthread mutex, as swift-nio's `NIOLock` is, rather than the standard library's `Mutex`:
/// ThreadSanitizer intercepts pthread's lock and unlock, but on Linux it cannot see `Mutex`'s wait.
/// When two threads contend, the one that waited takes the lock inside the runtime's uninstrumented
/// futex code, and ThreadSanitizer reports a race on the value the lock guards (ten lines show it:
/// two threads each holding a `Mutex` for a millisecond). With this lock `scripts/sanitize thread`
/// reports only races that are there.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
