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

    /// The settled row of a machine whose newest record is `last`, in `visit`, whose readers started after
    /// `machineRecordsStart`.
    package init(last: StateMachine<TransferModel, TransferEvent>.Record, visit: Int, machineRecordsStart: Int) {
        self.last = last
        self.visit = visit
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

    /// What a reader of the row's records reads: ``last``, the records before it counted as missed (let go with
    /// the machine, unread by this reader).
    package var batch: StateMachine<TransferModel, TransferEvent>.RecordBatch {
        .init(records: [last], missed: last.sequence - 1, state: last.after)
    }

    /// ``batch`` as a feed that ends after it.
    package func records() -> AsyncStream<StateMachine<TransferModel, TransferEvent>.RecordBatch> {
        let batch = batch
        return AsyncStream { continuation in
            continuation.yield(batch)
            continuation.finish()
        }
    }

    /// Whether a machine at `snapshot` may be let go for a settled row: it completed, and it holds no timeout
    /// and no postponed event.
    package static func canSettle(_ snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot) -> Bool {
        guard case .completed = snapshot.state.phase else { return false }
        return snapshot.timeout == nil && snapshot.postponed.isEmpty && snapshot.history.last != nil
    }
}
