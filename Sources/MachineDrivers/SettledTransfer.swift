import SeedModels
import StateMachineKit

/// A row whose transfer completed, once its list let the transfer go (``TransferList/settle(_:at:)``): where its
/// machine ended and its last record, in place of the transfer, its machine and their history (about 4 KB a
/// row of a copy dashboard; this is 136 bytes).
///
/// The row shows ``model``; History and the detail pane show ``last``. An event the model takes (a start) makes
/// the row's transfer again on a machine restored from ``snapshot``: same state and visit, its records numbered
/// on from ``last``, which its history holds, so a reader of the records picks up where it left off.
package final class SettledTransfer: Sendable {
    private typealias Record = StateMachine<TransferModel, TransferEvent>.Record

    // The last record but for the state after it, which the transition function gives again (``after``): a row
    // is 48 bytes smaller, a copy dashboard keeping one for every completed file.
    private let sequence: Int
    private let recordVisit: Int
    /// The ``TransferDriver/recordsStart`` of the machine let go: the subscriptions that followed it are named by
    /// it, and a pane still following that machine's records goes on as it was.
    package let machineRecordsStart: Int
    private let before: TransferModel
    private let event: TransferEvent
    private let outcome: Outcome

    /// The settled row of a machine at `snapshot`, whose readers started after `machineRecordsStart`; nil unless
    /// the machine completed, holds no timeout and no postponed event, keeps its newest record, and is in the
    /// state and visit that record leads to (``last``, ``visit``).
    package init?(
        _ snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot, machineRecordsStart: Int
    ) {
        guard case .completed = snapshot.state.phase, snapshot.timeout == nil, snapshot.postponed.isEmpty,
            let last = snapshot.history.last, snapshot.state == last.after,
            last.after == Self.after(last.before, last.event, last.outcome),
            snapshot.visit == Self.visit(after: last)
        else { return nil }
        sequence = last.sequence
        recordVisit = last.visit
        self.machineRecordsStart = machineRecordsStart
        before = last.before
        event = last.event
        outcome = last.outcome
    }

    /// The machine's last record: the completion.
    package var last: StateMachine<TransferModel, TransferEvent>.Record {
        Record(
            sequence: sequence, visit: recordVisit, before: before, event: event, outcome: outcome,
            after: Self.after(before, event, outcome))
    }

    /// The visit the machine was in after ``last``: read from the record rather than kept.
    package var visit: Int { Self.visit(after: last) }

    /// The visit a machine is in after `record`: the next once it moved, the record's own otherwise.
    private static func visit(after record: Record) -> Int {
        record.outcome == .moved ? record.visit + 1 : record.visit
    }

    /// The state after `event` came to `outcome` in `before`: the transition function's target when the event
    /// applied (moved or updated), `before` otherwise.
    private static func after(_ before: TransferModel, _ event: TransferEvent, _ outcome: Outcome) -> TransferModel {
        switch outcome {
        case .moved, .updated: TransferModel.transition(before, event).target(from: before)
        case .stayed, .ignored, .invalid, .stopped, .stale, .postponed, .overflowed: before
        }
    }

    /// Where the machine ended.
    package var model: TransferModel { Self.after(before, event, outcome) }

    /// What a machine made again for the row is restored from: no timeout, nothing postponed (a completed
    /// transfer has neither), the last record in its history.
    package var snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot {
        let last = last
        return .init(
            state: last.after, visit: Self.visit(after: last), sequence: sequence, history: [last], timeout: nil)
    }

    /// Where a reader of a restored machine's records starts: after the record before ``last``, so it reads
    /// ``last`` and nothing counts as missed.
    package var recordsStart: Int { sequence - 1 }

    /// What a reader of the row's records reads, in a feed that ends after it: ``last``, the records before it
    /// counted as missed (let go with the machine, unread by this reader).
    package func records() -> AsyncStream<StateMachine<TransferModel, TransferEvent>.RecordBatch> {
        let last = last
        let batch = StateMachine<TransferModel, TransferEvent>.RecordBatch(
            records: [last], missed: last.sequence - 1, state: last.after)
        return AsyncStream { continuation in
            continuation.yield(batch)
            continuation.finish()
        }
    }
}
