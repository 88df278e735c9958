import StateMachineInspector

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
    /// Machines `↑`/`↓` (and `←`/`→` on History and Graph): select the machine this many rows away.
    case moveMachine(Int)
    /// History `↑`/`↓`/PgUp/PgDn/Home: select the record this many rows away. Positive moves down (forward
    /// in time, towards the newest), negative up (back in time), as the dashboard's scrolling actions do.
    case travel(Int)
    /// History `End`: follow the newest record again.
    case followNewest
    /// Graph `↑`/`↓`/`←`/`→`: pan by rows and columns.
    case pan(rows: Int, columns: Int)
    /// Machines `Enter`: the selected machine's history.
    case openHistory
    /// `q`: stop inspecting (exit status 0).
    case quit
    /// Ctrl-C: stop as interrupted (exit status 130).
    case interrupt
}
