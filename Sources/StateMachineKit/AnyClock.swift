/// Any `Clock` whose durations are `Duration`, behind one concrete type the machine can store.
///
/// Time is measured from the moment the wrapped clock was wrapped: an `AnyClock.Instant` is an offset on
/// this clock's own timeline.
public struct AnyClock: Clock, Sendable {
    /// A point on the wrapped clock's timeline, as the offset from the moment it was wrapped.
    public typealias Instant = ClockInstant

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration, Duration?) async throws -> Void

    /// The wrapped clock's resolution.
    public let minimumResolution: Duration

    /// Wraps `clock`; its current instant becomes offset zero.
    public init<Wrapped: Clock>(_ clock: Wrapped) where Wrapped.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset, tolerance in
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance)
        }
        minimumResolution = clock.minimumResolution
    }

    /// A wrapped `ContinuousClock`, the machines' default: one for the process, its offset zero when first used. A
    /// machine only measures from its clock's `now` (a state timeout's deadline), so sharing it changes nothing
    /// but the cost of a machine: wrapping a clock for each allocated two closures, kept and freed with it.
    public static let continuous = AnyClock(ContinuousClock())

    /// The current instant of the wrapped clock.
    public var now: Instant { Instant(offset: elapsed()) }

    /// Suspends until the wrapped clock reaches `deadline`; throws `CancellationError` when cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline.offset, tolerance)
    }
}
