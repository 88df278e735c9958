/// A point on a clock's own timeline, as the time since the clock's origin: the instant of both
/// ``AnyClock`` (time since the wrapped clock was wrapped) and ``TestClock`` (time advanced since it was
/// created). Offsets of different clocks are only comparable when the clocks share an origin.
public struct ClockInstant: InstantProtocol, Sendable, Hashable, Codable {
    /// Time since the clock's origin.
    public var offset: Duration

    /// The instant `offset` after the clock's origin.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> ClockInstant { ClockInstant(offset: offset + duration) }

    /// The time from this instant to `other`.
    public func duration(to other: ClockInstant) -> Duration { other.offset - offset }

    /// Earlier instants come first.
    public static func < (lhs: ClockInstant, rhs: ClockInstant) -> Bool { lhs.offset < rhs.offset }
}
