import SeedModels
import StateMachineKit
import TerminalUI

/// The Transfers screen: the transfers in order, which one is selected, whether its detail pane is open
/// and whether states read as words or as canonical text.
package struct TransfersScreenState: Hashable, Sendable {
    /// The transfers, top to bottom.
    package var rows: [TransferRow]
    /// The selected row's index (0 when there are no rows).
    package var selected: Int
    /// The detail pane of the selected row, nil when closed (Enter opens it, Esc closes it).
    package var detail: TransferDetail?
    /// Whether the State column shows the canonical text instead of the words (`v`).
    package var showsCanonical: Bool
    /// Whether `f` injects a simulated fault into the selected transfer: on in the demo dashboard, off in
    /// `statetui copy`'s unless `--simulate-faults` (a fake "Input/output error" must not pass for a real one).
    package var simulatesFaults = true
    /// Whether a total row sums the transfers (``TransferTotals``): on in `statetui copy`'s dashboard, where the
    /// rows are one copy.
    package var showsTotals = false
    /// The filter typed after `/` and the sort column `o` picks (``TransfersFeature/sortColumns``).
    package private(set) var query = ListQuery()
    /// The rows the query shows, in its order, kept so a frame never filters or sorts; nil while no query is
    /// asked (every row, in order).
    private var shownRows: [Int]?

    /// A screen showing `rows`, the first selected.
    package init(rows: [TransferRow], selected: Int = 0, detail: TransferDetail? = nil, showsCanonical: Bool = false) {
        self.rows = rows
        self.selected = selected
        self.detail = detail
        self.showsCanonical = showsCanonical
    }

    /// Selects row `row` (clamped to the rows there are); an open detail pane shows the new row from its top.
    package mutating func select(_ row: Int) {
        let next = max(0, min(row, rows.count - 1))
        if next != selected, detail != nil { detail = TransferDetail() }
        selected = next
    }

    /// The rows drawn, by index, top to bottom: those the filter shows, in the sort column's order.
    package var shown: [Int] { shownRows ?? Array(rows.indices) }

    /// How many rows are drawn.
    package var shownCount: Int { shownRows?.count ?? rows.count }

    /// The row drawn at `position` (0 at the top) of the ``shown`` rows; without a filter or a sort, the same
    /// number, with no list of every row made.
    package func shownRow(at position: Int) -> Int { shownRows?[position] ?? position }

    /// Where the selected row is drawn among the ``shown`` rows; nil when it is not drawn.
    package var selectedPosition: Int? {
        guard let shownRows else { return rows.indices.contains(selected) ? selected : nil }
        return shownRows.firstIndex(of: selected)
    }

    /// Changes the query and draws the rows it shows; when it hides the selected row, the first one drawn is
    /// selected.
    package mutating func changeQuery(_ edit: ListEdit) {
        query.apply(edit, columns: TransfersFeature.sortColumns.count)
        reorder()
        if let first = shown.first, !isShown(selected) { select(first) }
    }

    /// Draws the rows the query shows in its order again (after a snapshot changed a row's state or figures).
    package mutating func reorder() {
        guard query.isActive else {
            shownRows = nil
            return
        }
        shownRows = query.order(
            count: rows.count, text: { TransfersFeature.filterText(rows[$0]) },
            key: { TransfersFeature.sortColumns[$1].key(rows[$0]) })
    }

    /// Draws the rows the query shows in its order again after `changed` rows changed their state or figures:
    /// only those are filtered and placed again (``ListQuery/place(_:in:text:key:)``). Before, every row was, after
    /// every change of any: with a filter typed, a copy of 3,000 files kept the dashboard busy for minutes,
    /// deaf to keys, long after the files were copied.
    package mutating func reorder(changed: some Collection<Int>) {
        guard query.isActive, var shown = shownRows else { return reorder() }
        let rows = self.rows
        query.place(
            changed.filter { rows.indices.contains($0) }, in: &shown,
            text: { TransfersFeature.filterText(rows[$0]) }, key: { TransfersFeature.sortColumns[$1].key(rows[$0]) })
        shownRows = shown
    }

    /// Whether row `row` is drawn.
    func isShown(_ row: Int) -> Bool {
        shownRows?.contains(row) ?? rows.indices.contains(row)
    }

    /// The selected row, nil when there are none or the filter hides it.
    var selectedRow: TransferRow? {
        hasSelection ? rows[selected] : nil
    }

    /// Whether a row is selected (there are rows, and the filter shows the selected one).
    var hasSelection: Bool { rows.indices.contains(selected) && (shownRows == nil || isShown(selected)) }

    /// The selected row's model, read in place (the help bar asks in every frame: no copy of the whole row).
    var selectedModel: TransferModel? {
        hasSelection ? rows[selected].model : nil
    }

    /// Stale callbacks dropped over all transfers, from the machines' own records.
    package var staleEvents: Int {
        rows.reduce(0) { $0 + $1.tally.stale }
    }

    /// Records of all transfers that fell out of their machines' histories before they were read.
    package var missedRecords: Int {
        rows.reduce(0) { $0 + $1.tally.missed }
    }
}

/// The open detail pane: how far its text is scrolled, and the newest records of the selected row's machine,
/// which only the open pane follows (``TransfersRuntime/detailSubscription(row:)``).
package struct TransferDetail: Hashable, Sendable {
    /// The pane's height in lines assumed when a scroll is not resolved against the drawn pane.
    package static let nominalHeight = 10
    /// How many of the machine's newest records the pane keeps.
    package static let recentLimit = 6

    /// The first line shown (clamped to the text when drawn).
    package var offset: Int
    /// The machine's newest records, oldest first, at most ``recentLimit``.
    package private(set) var records: [StateMachine<TransferModel, TransferEvent>.Record]

    /// A pane scrolled to `offset`, showing `records` (the newest ``recentLimit`` of them).
    package init(offset: Int = 0, records: [StateMachine<TransferModel, TransferEvent>.Record] = []) {
        self.offset = offset
        self.records = Array(records.suffix(Self.recentLimit))
    }

    /// Takes in a batch of the machine's records: those newer than the newest held, the newest kept.
    package mutating func take(_ batch: StateMachine<TransferModel, TransferEvent>.RecordBatch) {
        let newest = records.last?.sequence ?? 0
        records = Array((records + batch.records.filter { $0.sequence > newest }).suffix(Self.recentLimit))
    }

    /// The records as the pane lists them, for the machine called `name`.
    package func rows(machine name: String) -> [HistoryRow] {
        HistoryRow.rows(machine: name, history: records)
    }
}
