import Foundation

/// A value guarded by a lock that ThreadSanitizer understands.
///
/// Synchronization's `Mutex` locks with raw futex calls on Linux, which TSan does not intercept, so
/// `make test-tsan` reports every access inside `withLock` as a race. `NSLock` is a pthread mutex, which
/// TSan models; this wrapper keeps `Mutex`'s `withLock` shape so swapping back later is a rename.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
