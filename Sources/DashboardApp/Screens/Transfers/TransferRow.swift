import MachineDrivers
import ScreenStates

/// One transfer on the Transfers screen: its name, the newest snapshot of its machine and of its simulated
/// worker, and what its records counted. The reducer never changes these on its own; only their sources'
/// snapshots do.
package struct TransferRow: Hashable, Sendable {
    /// The file the transfer produces (also its row's label).
    package var name: String
    /// The newest state its `TransferMachine` published.
    package var model: TransferModel {
        didSet { stateText = String(describing: model.phase) }
    }
    /// The phase in canonical text, printed once per snapshot rather than once per frame (printing is
    /// a fair share of a frame's time with many rows).
    package private(set) var stateText: String
    /// The newest status its driver (simulated worker or real copy) published.
    package var driverStatus: TransferDriverStatus
    /// What its machine's records counted: the stale late callbacks among them.
    package var tally: RecordTally

    /// A row for `name` at `model`.
    package init(
        name: String, model: TransferModel = .initial, driverStatus: TransferDriverStatus = TransferDriverStatus(),
        tally: RecordTally = RecordTally()
    ) {
        self.name = name
        self.model = model
        self.stateText = String(describing: model.phase)
        self.driverStatus = driverStatus
        self.tally = tally
    }
}
