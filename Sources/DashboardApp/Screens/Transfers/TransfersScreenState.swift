/// The Transfers screen: the transfers in order and which one is selected.
package struct TransfersScreenState: Hashable, Sendable {
    /// The transfers, top to bottom.
    package var rows: [TransferRow]
    /// The selected row's index (0 when there are no rows).
    package var selected: Int

    /// A screen showing `rows`, the first selected.
    package init(rows: [TransferRow], selected: Int = 0) {
        self.rows = rows
        self.selected = selected
    }

    /// The selected row, nil when there are none.
    var selectedRow: TransferRow? {
        rows.indices.contains(selected) ? rows[selected] : nil
    }

    /// Stale callbacks dropped over all transfers, from the machines' own records.
    package var staleEvents: Int {
        rows.reduce(0) { $0 + $1.tally.stale }
    }
}
