import SeedModels

/// What the Load screen shows: seed 002's two models of one screen, side by side. The left pane is the load
/// machine's newest state (never changed here); the right pane is a bag of flags updated by the same
/// actions the way flag-based code usually does it, which is how it reaches screens that cannot exist. The
/// flags hear every action the machine recorded, the ones it dropped as stale too: flags have no stale check.
package struct LoadScreenState: Hashable, Sendable {
    /// The load machine's newest state.
    package var load: LoadState
    /// The same screen as three independent flags.
    package var flags: FlagsState
    /// Whether the next server response fails (`f`).
    package var failNext: Bool
    /// Requests the machine started so far.
    package var requests: Int
    /// The machine's records taken in so far: the stale responses among them.
    package var tally: RecordTally

    /// The screen before anything happened.
    package init(
        load: LoadState = .idle, flags: FlagsState = FlagsState(), failNext: Bool = false, requests: Int = 0,
        tally: RecordTally = RecordTally()
    ) {
        self.load = load
        self.flags = flags
        self.failNext = failNext
        self.requests = requests
        self.tally = tally
    }
}
