import Support

/// A clock that moves only when told to, for deterministic tests of state timeouts.
///
/// `sleep(until:)` suspends until ``advance(by:)`` moves the clock to or past the deadline; nothing
/// ever waits for real time. Wrap it for a machine with `AnyClock(testClock)`.
public final class TestClock: Clock, Sendable {
    /// A point on the test clock's timeline: the time advanced since it was created.
    public typealias Instant = ClockInstant

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Timeline {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
        var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the waiters of ``TestClock/sleepers(atLeast:)`` that are now satisfied.
        mutating func satisfiedCountWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = countWaiters.filter { $0.count <= sleepers.count }.map(\.continuation)
            countWaiters.removeAll { $0.count <= sleepers.count }
            return ready
        }
    }

    private let timeline = Locked(Timeline())

    /// A clock at offset zero with nobody sleeping.
    public init() {}

    /// The current instant; it changes only in ``advance(by:)``.
    public var now: Instant { timeline.withLock { $0.now } }

    /// Zero: the test clock is exact.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to advance.
    public var pendingSleeps: Int { timeline.withLock { $0.sleepers.count } }

    /// Suspends until ``advance(by:)`` reaches `deadline` (at once if it already has);
    /// throws `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = timeline.withLock { timeline in
            defer { timeline.nextID += 1 }
            return timeline.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Start {
                    case cancelled, due
                    case sleeping([CheckedContinuation<Void, Never>])
                }
                let start = timeline.withLock { timeline -> Start in
                    // Cancellation is flagged before the handler runs, so checking it under the lock
                    // closes the gap between the handler and this registration.
                    if Task.isCancelled { return .cancelled }
                    if deadline <= timeline.now { return .due }
                    timeline.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .sleeping(timeline.satisfiedCountWaiters())
                }
                switch start {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .sleeping(let waiters): for waiter in waiters { waiter.resume() }
                }
            }
        } onCancel: {
            let sleeper = timeline.withLock { timeline -> Sleeper? in
                guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return timeline.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes, in deadline order, every sleep that is due.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "TestClock cannot go backwards (advance(by: \(duration)))")
        let due = timeline.withLock { timeline -> [Sleeper] in
            timeline.now = timeline.now.advanced(by: duration)
            let now = timeline.now
            let due = timeline.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            timeline.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` sleeps are waiting: a deterministic way for a test to know
    /// that a timer has been armed and is sleeping.
    public func sleepers(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = timeline.withLock { timeline -> Bool in
                if timeline.sleepers.count >= count { return true }
                timeline.countWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
