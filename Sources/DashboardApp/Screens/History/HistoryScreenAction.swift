import TerminalUI

/// What can happen on the History screen.
package enum HistoryScreenAction: Hashable, Sendable {
    /// `]`: the next machine.
    case nextMachine
    /// `[`: the previous machine.
    case previousMachine
    /// The wheel: scroll by this many rows. Positive scrolls down (forward, towards the newest record),
    /// negative up (towards the oldest), as ``GraphScreenAction/scroll(_:)`` does.
    case scroll(Int)
    /// `↑`/`↓`/`k`/`j`/PgUp/PgDn/`g`/`G`/Home/End: `move` in a list showing `rows` rows (the keymap puts in the drawn
    /// height; a page keeps one row for context, Home and End show a full page at either end, End follows).
    case move(ScrollMove, rows: Int)
    /// `/`: start typing a search pattern.
    case beginSearch
    /// A character typed into the pattern (ignored past ``HistorySearch/maximumLength``).
    case searchInput(Character)
    /// Backspace while typing the pattern.
    case searchBackspace
    /// Enter after the pattern: land on the newest matching row, scrolled to show in a list of `rows` rows.
    case submitSearch(rows: Int)
    /// `n`/`N`: land on the next older (`n`) or newer (`N`) matching row, wrapping around, scrolled to show in a
    /// list of `rows` rows.
    case findMatch(older: Bool, rows: Int)
    /// Esc: stop typing, or forget the search.
    case cancelSearch
    /// `o`: sort by the next column (``HistorySort``), after the last in time order again.
    case cycleSort
    /// `v`: states in words or as their canonical text.
    case toggleStateText
    /// A batch of the named machine's change feed: its new records as rows, and how many records fell out of
    /// the machine's history before they were read.
    case recordsChanged(machine: String, [HistoryRow], missed: Int)
}
