import DashboardApp
import StateMachineInspector
import TerminalUI

/// What can happen on the inspect screens: the inspected program's messages, its connection ending, and keys.
package enum InspectScreenAction: Hashable, Sendable {
    /// One message of the inspected program, in the order the connection delivered them.
    case received(InspectorMessage)
    /// The connection ended: the program exited or stopped inspection (`nil`), or a line could not be read.
    case disconnected(reason: String?)
    /// `1`–`3`: show this screen.
    case show(InspectTab)
    /// Tab / Shift-Tab: the next or previous screen.
    case cycleTab(Int)
    /// `[`/`]` on every screen: select the machine this many places away in the Machines list as drawn.
    case moveMachine(Int)
    /// Machines `↑`/`↓`/`k`/`j`/PgUp/PgDn/`g`/`G`/Home/End: move the selection through the list as drawn, a
    /// page being `rows` rows (``ListKeys``).
    case moveCursor(ScrollMove, rows: Int)
    /// Machines `/`, `o`, and Enter, Esc and Backspace while the filter is typed: change the list's query.
    case list(ListEdit)
    /// History `↑`/`↓`/`k`/`j`/PgUp/PgDn/`g`/Home: select the record this many rows away. Positive moves down
    /// (forward in time, towards the newest), negative up (back in time), as the dashboard's scrolling actions do.
    case travel(Int)
    /// History `G`/`End`: follow the newest record again.
    case followNewest
    /// History `o`: sort the records by the next column (``HistorySort``), after the last in time order again.
    case cycleHistorySort
    /// History `/`, a character typed into the pattern, Backspace while typing it, and Esc: change the search
    /// (``HistorySearch/apply(_:to:)``).
    case search(HistorySearch.Edit)
    /// Enter after History's pattern: travel to the newest matching record.
    case submitSearch
    /// History `n`/`N`: travel to the next older (`n`) or newer (`N`) matching record, wrapping around.
    case findMatch(older: Bool)
    /// Graph `↑`/`↓`/`←`/`→`, `hjkl`, PgUp/PgDn, `g`/`G`, `H`/`L`: pan by rows and columns.
    case pan(rows: Int, columns: Int)
    /// `v`: states in words or as their canonical text.
    case toggleStateText
    /// Graph `f`: every state seen, or one box per case.
    case toggleFullGraph
    /// Machines `Enter`: the selected machine's history.
    case openHistory
    /// `q`: stop inspecting (exit status 0).
    case quit
    /// Ctrl-C: stop as interrupted (exit status 130).
    case interrupt
}
