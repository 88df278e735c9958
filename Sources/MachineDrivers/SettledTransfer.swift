import SeedModels
import StateMachineKit

/// A row whose transfer completed, once its list let the transfer go (``TransferList/settle(_:at:)``): where its
/// machine ended and its last record, in place of the transfer, its machine and their history (about 4 KB a
/// row of a copy dashboard; this is about 200 bytes).
///
/// The row shows ``model``; History and the detail pane show ``last``. An event the model takes (a start) makes
/// the row's transfer again on a machine restored from ``snapshot``: same state and visit, its records numbered
/// on from ``last``, which its history holds, so a reader of the records picks up where it left off.
package final class SettledTransfer: Sendable {
    /// The machine's last record: the completion.
    package let last: StateMachine<TransferModel, TransferEvent>.Record
    /// The visit the machine was in after it.
    package let visit: Int
    /// The ``TransferDriver/recordsStart`` of the machine let go: the subscriptions that followed it are named by
    /// it, and a pane still following that machine's records goes on as it was.
    package let machineRecordsStart: Int

    /// The settled row of a machine at `snapshot`, whose readers started after `machineRecordsStart`; nil unless
    /// the machine completed, holds no timeout and no postponed event, and keeps its newest record.
    package init?(
        _ snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot, machineRecordsStart: Int
    ) {
        guard case .completed = snapshot.state.phase, snapshot.timeout == nil, snapshot.postponed.isEmpty,
            let last = snapshot.history.last
        else { return nil }
        self.last = last
        visit = snapshot.visit
        self.machineRecordsStart = machineRecordsStart
    }

    /// Where the machine ended.
    package var model: TransferModel { last.after }

    /// What a machine made again for the row is restored from: no timeout, nothing postponed (a completed
    /// transfer has neither), the last record in its history.
    package var snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot {
        .init(state: last.after, visit: visit, sequence: last.sequence, history: [last], timeout: nil)
    }

    /// Where a reader of a restored machine's records starts: after the record before ``last``, so it reads
    /// ``last`` and nothing counts as missed.
    package var recordsStart: Int { last.sequence - 1 }

    /// What a reader of the row's records reads, in a feed that ends after it: ``last``, the records before it
    /// counted as missed (let go with the machine, unread by this reader).
    package func records() -> AsyncStream<StateMachine<TransferModel, TransferEvent>.RecordBatch> {
        let batch = StateMachine<TransferModel, TransferEvent>.RecordBatch(
            records: [last], missed: last.sequence - 1, state: last.after)
        return AsyncStream { continuation in
            continuation.yield(batch)
            continuation.finish()
        }
    }
}
