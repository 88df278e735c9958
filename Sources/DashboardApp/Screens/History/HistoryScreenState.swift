/// What the History screen shows: the machines by name, the selected one's records as its subscription
/// last delivered them (never edited here), and how far up the user scrolled.
package struct HistoryScreenState: Hashable, Sendable {
    /// Every machine the screen can show, in order: each transfer, the upload, the load.
    package var machines: [String]
    /// The index of the selected machine in ``machines``.
    package var selected: Int
    /// The selected machine's records, oldest first.
    package var rows: [HistoryRow]
    /// Rows scrolled up from the newest. 0 follows the newest record at the bottom; above 0 the same
    /// records stay in view as new ones arrive, until the user scrolls back down (End).
    package var scrolledUp: Int

    /// The screen on the first of `machines`, following its newest records.
    package init(machines: [String] = [], selected: Int = 0, rows: [HistoryRow] = [], scrolledUp: Int = 0) {
        self.machines = machines
        self.selected = selected
        self.rows = rows
        self.scrolledUp = scrolledUp
    }

    /// The selected machine's name, nil when there are none.
    package var machine: String? {
        machines.indices.contains(selected) ? machines[selected] : nil
    }
}
