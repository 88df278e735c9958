import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI

/// What can happen on the Transfers screen: the user's keys and the snapshots of machines and workers.
package enum TransfersScreenAction: Hashable, Sendable {
    /// Select the row drawn above the selected one (the wheel).
    case selectPrevious
    /// Select the row drawn below the selected one (the wheel).
    case selectNext
    /// Select row `row` (a click on it); clamped to the rows there are.
    case select(row: Int)
    /// Select the row drawn `by` rows below (negative: above), clamped to the rows drawn.
    case moveSelection(by: Int)
    /// Move the selection through the rows drawn (`↑↓`/`kj` a row, PgUp/PgDn a page of `rows` rows, `g`/`G`
    /// and Home/End either end: ``ListKeys``); the keymap puts in the rows drawn, ``TransferDetail/nominalHeight``
    /// without a drawn table.
    case moveCursor(ScrollMove, rows: Int)
    /// Change the filter or the sort column (`/`, `o`, and Enter, Esc and Backspace while the filter is typed).
    case list(ListEdit)
    /// Start the selected transfer (`s`).
    case start
    /// Start every transfer that can start (`S`): each machine judges its own start.
    case startAll
    /// Pause the selected transfer when running, resume it when paused (space, `p`).
    case togglePause
    /// Cancel the selected transfer (`c`).
    case cancel
    /// Retry the selected failed transfer (`r`).
    case retry
    /// Make the selected transfer's next outcome a failure (`f`).
    case failNextOutcome
    /// Open the selected transfer's detail pane, or close it when open (Enter).
    case toggleDetail
    /// Close the detail pane (Esc).
    case closeDetail
    /// Scroll the detail pane by `move` (PgUp/PgDn/Home/End); the keymap resolves it against the drawn pane
    /// into ``scrollDetail(to:)``. Without a drawn pane a page is ``TransferDetail/nominalHeight`` lines.
    case moveDetail(ScrollMove)
    /// Scroll the detail pane to show from line `to`.
    case scrollDetail(to: Int)
    /// Show states as canonical text instead of words, or back (`v`).
    case toggleStateText
    /// Row `row`'s machine published `model`.
    case machineChanged(row: Int, TransferModel)
    /// What the machines' one change feed brought: each transfer that recorded, with its records, what the
    /// runtime measured as it read them and its driver's status then.
    case transfersRecorded([TransferChange])
    /// Row `row`'s driver (simulated worker or real copy) published `status`.
    case driverStatusChanged(row: Int, TransferDriverStatus)
    /// A batch of row `row`'s machine's change feed: its new records (stale ones included) and how many it missed.
    case recordsChanged(row: Int, StateMachine<TransferModel, TransferEvent>.RecordBatch)
    /// A batch of the records of row `row`'s machine for the open detail pane, which follows the selected row's.
    case detailRecorded(row: Int, StateMachine<TransferModel, TransferEvent>.RecordBatch)
}

/// One transfer's news in the machines' change feed (``TransfersScreenAction/transfersRecorded(_:)``).
package struct TransferChange: Hashable, Sendable {
    /// The transfer's row.
    package var row: Int
    /// Its machine's records since the feed last read it, and the state after them.
    package var records: StateMachine<TransferModel, TransferEvent>.RecordBatch
    /// What the runtime measured as it read them: the time on the machine's clock, the visit, the timeout.
    package var sample: TransferSample
    /// Its driver's status then.
    package var status: TransferDriverStatus

    /// The news of `row`.
    package init(
        row: Int, records: StateMachine<TransferModel, TransferEvent>.RecordBatch, sample: TransferSample,
        status: TransferDriverStatus
    ) {
        self.row = row
        self.records = records
        self.sample = sample
        self.status = status
    }
}
