/// What the History screen shows: the records of each machine (newest snapshots, never edited here), which
/// machine is selected, and how far up it is scrolled.
public struct HistoryScreenState: Hashable, Sendable {
    /// The machines whose history can be shown.
    public enum Machine: Int, CaseIterable, Hashable, Sendable {
        /// The transfer machines of the Transfers screen.
        case transfers
        /// The upload machine.
        case upload
        /// The load machine.
        case load
    }

    /// The selected machine.
    public var machine: Machine
    /// The rows of each machine, oldest first.
    public var rows: [Machine: [HistoryRow]]
    /// Lines scrolled up from the newest (0: the newest row is at the bottom).
    public var scrolledUp: Int

    /// The screen on `machine`, at the newest records.
    public init(machine: Machine = .transfers, rows: [Machine: [HistoryRow]] = [:], scrolledUp: Int = 0) {
        self.machine = machine
        self.rows = rows
        self.scrolledUp = scrolledUp
    }

    /// The selected machine's rows.
    public var selectedRows: [HistoryRow] { rows[machine] ?? [] }
}
