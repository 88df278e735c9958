/// What can happen on the History screen.
package enum HistoryScreenAction: Hashable, Sendable {
    /// `h`/`→`: the next machine.
    case nextMachine
    /// `←`: the previous machine.
    case previousMachine
    /// `↑`/`↓`/PgUp/PgDn/Home/End and the wheel: scroll by this many rows. Positive scrolls down (forward,
    /// towards the newest record), negative up (towards the oldest), as ``GraphScreenAction/scroll(_:)`` does.
    case scroll(Int)
    /// The named machine's records, as its subscription delivered them.
    case recordsChanged(machine: String, [HistoryRow])
}
