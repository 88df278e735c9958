/// What a simulated transfer worker reports about itself, apart from the machine's state.
public struct SimulationStatus: Hashable, Sendable {
    /// Late callbacks a driver counted as dropped. The dashboard does not read it: it counts stale events
    /// from each machine's own records (``RecordTally``).
    public var staleEvents: Int
    /// Whether the next outcome the worker reports will be a failure (`f`).
    public var failsNextOutcome: Bool

    /// A status.
    public init(staleEvents: Int = 0, failsNextOutcome: Bool = false) {
        self.staleEvents = staleEvents
        self.failsNextOutcome = failsNextOutcome
    }
}
