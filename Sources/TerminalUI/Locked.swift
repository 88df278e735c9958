import Foundation

/// A value behind a lock, shared between threads.
///
/// Why not `Synchronization.Mutex`: on Linux (Swift 6.3) ThreadSanitizer does not see its futex-based
/// locking and reports every guarded access as a race, which would make `make test-tsan` useless.
/// `NSLock` is a pthread mutex, which ThreadSanitizer understands.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
