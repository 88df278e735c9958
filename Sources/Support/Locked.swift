import Synchronization

/// A value shared between threads behind a lock: the one lock of this package (the engine, the terminal
/// toolkit, file transfer, the drivers and the app all use it).
///
/// A `Mutex` whose hand-overs ThreadSanitizer can see. Settled by experiment on Linux with Swift 6.3.1
/// (`swift build --sanitize=thread`, eight threads each taking the lock 20,000 times and appending to an
/// array behind it): a bare `Mutex` — data inside it, or outside it and guarded by convention — gets a
/// "Swift access race" report on every run, because a contended `Mutex` waits in the kernel (a
/// priority-inheriting futex) where ThreadSanitizer cannot watch, so it sees no happens-before edge
/// between two critical sections that never overlap. The same loop behind `NSLock` (a pthread mutex,
/// which ThreadSanitizer intercepts) and behind this type reports nothing; without any lock it reports
/// the race, so the harness does see races. `Locked` adds an acquire load on entry and a release store on
/// exit of one atomic word — plain moves on x86 and ARM — which is the edge the sanitizer needs, and
/// keeps `Mutex`'s advantages over `NSLock`: no allocation, no class, `~Copyable` values.
///
/// Each way in (`withLock`, `withLockIfAvailable`) writes the load and the store itself, around its call of
/// `body`: the sanitizer counts an access to the value from the moment it is passed `inout`, so a shared helper
/// that took the value would start that access before its acquire load, and every hand-over would be
/// reported as a race (626 reports in one `make test-tsan` when tried).
///
/// Inlinable, so the engine's inlinable paths (`send`, `states()`) specialise through it.
@usableFromInline
package struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline let handoff = Atomic<Int>(0)

    /// Protects `value`.
    @inlinable
    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }

    /// Runs `body` under the lock if no one holds it, and returns its result; returns `nil` at once, running
    /// nothing, while someone does.
    @inlinable @inline(__always)
    package borrowing func withLockIfAvailable<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        try mutex.withLockIfAvailable { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}
