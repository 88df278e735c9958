import Synchronization

/// A `Mutex` whose hand-overs ThreadSanitizer can see.
///
/// On Linux, `Mutex` takes a contended lock inside the kernel (a priority-inheriting futex), where
/// ThreadSanitizer cannot watch, so it reports races between critical sections that never overlap.
/// `Locked` adds an acquire load on entry and a release store on exit of one atomic word: plain moves
/// on x86 and ARM, and the happens-before edge the sanitizer needs. Use it for any state shared
/// between threads in code that runs under `make test-tsan`.
public struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline let handoff = Atomic<Int>(0)

    /// Protects `value`.
    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}
