#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for work that blocks (a terminal's run loop waiting for keys, a socket's accept loop, a
/// file copy's system calls), which must not hold a thread of Swift concurrency's cooperative pool. A POSIX
/// thread, started detached: it ends when `body` returns, and nobody joins it.
package enum DetachedThread {
    /// The closure a thread runs, handed to the C entry point as one retained pointer.
    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    #if canImport(Glibc)
    /// Names the calling thread through `/proc/thread-self/comm` (Glibc's `pthread_setname_np` is not visible to
    /// Swift); the kernel keeps the first 15 bytes. A name that cannot be set is left as it was.
    private static func nameThisThread(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        _ = writeAll(file, String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }
    #endif

    /// Starts `body` on a new thread named `name` (as `top -H` and debuggers show it; Linux keeps its first 15
    /// bytes). A thread that cannot be started (the process is out of threads) is a fatal error, as it is for
    /// Foundation's `Thread`: the work it was for cannot be done any other way.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        let status = create(context)
        precondition(status == 0, "cannot start a thread: pthread_create failed")
    }

    /// Runs `body` on a new thread named `name` and returns what it returned (or throws what it threw), holding
    /// no thread of the cooperative pool while it waits: for work that blocks its thread (a headless copy, a
    /// demo, a stop that waits for a copy to end, a test waiting for a compiler it started) asked for from a
    /// task.
    /// The outcome is handed over under a lock, so that ThreadSanitizer sees the thread's writes (to what `body`
    /// captured, too) happen before the caller reads them: a continuation resumed from a plain thread is no
    /// edge it knows.
    package static func value<Value: Sendable, Failure: Error>(
        name: String, _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let handover = Handover<Result<Value, Failure>>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start(name: name) {
                let outcome = Result { () throws(Failure) in try body() }
                handover.value.withLock { $0 = outcome }
                continuation.resume()
            }
        }
        guard let outcome = handover.value.withLock({ $0 }) else {
            preconditionFailure("Internal inconsistency: the thread ended without a value")
        }
        return try outcome.get()
    }

    /// What a thread of ``value(name:_:)`` made, behind the lock that hands it over.
    private final class Handover<Value: Sendable>: Sendable {
        let value = Locked<Value?>(nil)
    }

    /// Whether the calling thread may block until other work ends: true on a thread that runs no task (the
    /// main thread of a synchronous program, a thread of ``start(name:_:)``). A task blocking its thread holds
    /// one of the cooperative pool's few threads (one a core), and when every one of them waits for work that
    /// needs the pool, nothing moves again: functions that block check this first.
    package static var mayBlock: Bool {
        withUnsafeCurrentTask { $0 == nil }
    }

    /// Starts a detached thread running the ``Body`` behind `context`; pthread_create's status.
    private static func create(_ context: UnsafeMutableRawPointer) -> Int32 {
        #if canImport(Glibc)
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                DetachedThread.run(context!)
                return nil
            }, context)
        #else
        var created: pthread_t?
        let status = pthread_create(
            &created, nil,
            { context in
                DetachedThread.run(context)
                return nil
            }, context)
        guard let thread = created else { return status == 0 ? EAGAIN : status }
        #endif
        if status == 0 { _ = pthread_detach(thread) }
        return status
    }

    /// The new thread's first and only step: name it, then run its body (releasing the body afterwards).
    private static func run(_ context: UnsafeMutableRawPointer) {
        let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
        #if canImport(Glibc)
        nameThisThread(body.name)
        #else
        _ = pthread_setname_np(body.name)
        #endif
        body.run()
    }
}
