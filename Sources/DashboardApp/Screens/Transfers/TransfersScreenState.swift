/// The Transfers screen: the transfers in order, which one is selected, whether its detail pane is open
/// and whether states read as words or as canonical text.
public struct TransfersScreenState: Hashable, Sendable {
    /// The transfers, top to bottom.
    public var rows: [TransferRow]
    /// The selected row's index (0 when there are no rows).
    public var selected: Int
    /// The detail pane of the selected row, nil when closed (Enter opens it, Esc closes it).
    public var detail: TransferDetail?
    /// Whether the State column shows the canonical text instead of the words (`v`).
    public var showsCanonical: Bool

    /// A screen showing `rows`, the first selected.
    public init(rows: [TransferRow], selected: Int = 0, detail: TransferDetail? = nil, showsCanonical: Bool = false) {
        self.rows = rows
        self.selected = selected
        self.detail = detail
        self.showsCanonical = showsCanonical
    }

    /// The selected row, nil when there are none.
    public var selectedRow: TransferRow? {
        rows.indices.contains(selected) ? rows[selected] : nil
    }

    /// Stale callbacks dropped over all transfers, from the machines' own records.
    public var staleEvents: Int {
        rows.reduce(0) { $0 + $1.tally.stale }
    }
}

/// The open detail pane: how far its text is scrolled.
public struct TransferDetail: Hashable, Sendable {
    /// The first line shown (clamped to the text when drawn).
    public var offset: Int

    /// A pane scrolled to `offset`.
    public init(offset: Int = 0) {
        self.offset = offset
    }
}
