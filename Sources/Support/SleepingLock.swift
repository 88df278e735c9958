#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads behind a lock whose waiters sleep at once: a pthread mutex of the default
/// kind, which waits in the kernel as soon as it finds the lock taken.
///
/// For a lock that dozens of threads take on a machine with few cores, where ``Locked`` costs more than it
/// saves: a `Mutex` spins before it sleeps, and while the holder waits for a core the spinners burn theirs. The
/// batch queue of a journal's commits, which every copy of a tree takes once per file, spun there for a twelfth
/// of a 10,000-file copy's CPU time on two cores. ``Locked`` stays the lock of short, rarely contended
/// sections (an engine's), where not entering the kernel is what makes it fast.
///
/// ThreadSanitizer intercepts pthread mutexes, so it sees every hand-over.
package final class SleepingLock<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `value` is read and written only between `pthread_mutex_lock` and
    // `pthread_mutex_unlock` on `mutex`, which this class allocates and never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Protects `value`.
    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
