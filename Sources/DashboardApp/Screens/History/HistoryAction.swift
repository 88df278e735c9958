/// What can happen on the History screen.
public enum HistoryAction: Hashable, Sendable {
    /// `h`/`→`: the next machine.
    case nextMachine
    /// `←`: the previous machine.
    case previousMachine
    /// `k`/`j` (and the arrows without a layout): scroll up by this many rows (negative: down, towards the
    /// newest), at most until the oldest record is the last one shown.
    case scrollUp(Int)
    /// ↑/↓/PgUp/PgDn/Home/End resolved against the drawn list: show the newest `rowsUp` rows below the view
    /// (0 follows the newest).
    case scrollTo(rowsUp: Int)
    /// `/`: start typing a search pattern.
    case beginSearch
    /// A character typed into the pattern (ignored past ``HistorySearch/maximumLength``).
    case searchInput(Character)
    /// Backspace while typing the pattern.
    case searchBackspace
    /// Enter after the pattern (or `n`/`N`): land on the match with sequence number `match` (nil: none),
    /// scrolled `rowsUp` so it shows.
    case showMatch(match: Int?, rowsUp: Int)
    /// Esc: stop typing, or forget the search.
    case cancelSearch
    /// The named machine's records, as its subscription delivered them.
    case recordsChanged(machine: String, [HistoryRow])
}
