/// Any `Clock` whose durations are `Duration`, behind one concrete type the machine can store.
///
/// Time is measured from the moment the wrapped clock was wrapped, so instants of different clocks
/// never mix: an `AnyClock.Instant` is an offset on this clock's own timeline.
public struct AnyClock: Clock, Sendable {
    /// A point on the wrapped clock's timeline, as the offset from the moment it was wrapped.
    public struct Instant: InstantProtocol, Sendable, Hashable, Codable {
        /// Time since the clock was wrapped.
        public var offset: Duration

        /// The instant `offset` after the clock was wrapped.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Earlier instants come first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

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

    /// A wrapped `ContinuousClock`, the machines' default.
    public static var continuous: AnyClock { AnyClock(ContinuousClock()) }

    /// The current instant of the wrapped clock.
    public var now: Instant { Instant(offset: elapsed()) }

    /// Suspends until the wrapped clock reaches `deadline`; throws `CancellationError` when cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline.offset, tolerance)
    }
}
