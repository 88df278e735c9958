/// What can happen on the History screen.
package enum HistoryAction: Hashable, Sendable {
    /// `h`/`→`: the next machine.
    case nextMachine
    /// `←`: the previous machine.
    case previousMachine
    /// `↑`/`↓`/PgUp/PgDn/Home/End: scroll up by this many rows (negative: down, towards the newest).
    case scrollUp(Int)
    /// The named machine's records, as its subscription delivered them.
    case recordsChanged(machine: String, [HistoryRow])
}
