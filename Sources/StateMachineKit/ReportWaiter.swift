import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sender waiting, blocked, for its reports to be taken by the machine's deliverer, or for the delivery
/// itself to be handed to it.
///
/// Made under the machine's lock when a sender's reports queue behind another thread's delivery; the
/// deliverer resumes it after releasing the lock. It blocks on a semaphore (a futex on Linux): no spinning.
@usableFromInline
final class ReportWaiter: Sendable {
    /// What the waiting sender does once resumed.
    @usableFromInline
    enum Turn: UInt8 {
        /// Still waiting.
        case waiting
        /// A deliverer took its reports: it returns.
        case taken
        /// The deliverer handed the delivery over: it delivers the queued reports, its own included.
        case deliver
    }

    /// How many notes the machine had queued in all once this sender's were: its reports are taken when
    /// the deliverers have taken that many.
    @usableFromInline let ticket: Int
    @usableFromInline let turn = Atomic<UInt8>(Turn.waiting.rawValue)
    @usableFromInline let semaphore = DispatchSemaphore(value: 0)

    @inlinable
    init(ticket: Int) { self.ticket = ticket }

    /// Blocks until resumed, and says what to do.
    @inlinable
    func wait() -> Turn {
        semaphore.wait()
        return Turn(rawValue: turn.load(ordering: .acquiring)) ?? .waiting
    }

    /// Wakes the waiting sender with `next`; outside the machine's lock.
    @inlinable
    func resume(_ next: Turn) {
        turn.store(next.rawValue, ordering: .releasing)
        semaphore.signal()
    }
}

/// Whether the calling thread is delivering some machine's reports, in a per-thread count.
///
/// A thread inside a sink must never wait for another deliverer: that one may be waiting for it (two
/// machines whose sinks send to each other). A `send` from inside any machine's sink therefore queues its
/// reports for that machine's deliverer and returns at once.
@usableFromInline
enum DeliveringThread {
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "StateMachineKit: pthread_key_create failed with \(status)")
        return key
    }()

    /// How many deliveries are in progress on this thread (a sink may start another machine's).
    @inlinable
    static var depth: Int { Int(bitPattern: pthread_getspecific(key)) }

    /// Whether this thread is delivering any machine's reports.
    @inlinable
    static var isDelivering: Bool { depth > 0 }

    /// Runs `body` as a delivery on this thread.
    @inlinable
    static func delivering<Result>(_ body: () -> Result) -> Result {
        let outer = depth
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: outer + 1))
        defer { pthread_setspecific(key, UnsafeRawPointer(bitPattern: outer)) }
        return body()
    }
}
