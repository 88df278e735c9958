import SeedModels
import StateMachineKit

/// A row whose transfer completed, once its list let the transfer go (``TransferList/settle(_:at:)``): where its
/// machine ended and its last record, in place of the transfer, its machine and their history (about 4 KB a
/// row of a copy dashboard; the allocator holds this in 64 bytes).
///
/// The row shows ``model``; History and the detail pane show ``last``. An event the model takes (a start) makes
/// the row's transfer again on a machine restored from ``snapshot``: same state and visit, its records numbered
/// on from ``last``, which its history holds, so a reader of the records picks up where it left off.
///
/// The last record is kept in its parts, which a completion's record always has: the request's success with the
/// file it made, in a running or paused state; the state after it is the transition function's to give again
/// (``after``). A machine whose last record is not of that shape, or whose numbers do not fit in 32 bits, is not
/// settled (its row keeps its transfer).
package final class SettledTransfer: Sendable {
    private typealias Record = StateMachine<TransferModel, TransferEvent>.Record

    /// The file the success made, shared with the state after it.
    private let file: String
    private let sequence: UInt32
    private let recordVisit: UInt32
    private let recordsStartOfMachine: UInt32
    /// The request the success named, and the newest request of the state before it.
    private let request: UInt32
    private let lastRequest: UInt32
    /// The state before it: running (or paused) at this percent.
    private let percent: UInt8
    private let wasPaused: Bool
    /// The record's outcome: moved, or else updated.
    private let moved: Bool

    /// The ``TransferDriver/recordsStart`` of the machine let go: the subscriptions that followed it are named by
    /// it, and a pane still following that machine's records goes on as it was.
    package var machineRecordsStart: Int { Int(recordsStartOfMachine) }

    /// The settled row of a machine at `snapshot`, whose readers started after `machineRecordsStart`; nil unless
    /// the machine completed, holds no timeout and no postponed event, keeps its newest record, and is in the
    /// state and visit that record leads to (``last``, ``visit``), and that record is kept whole in the parts above.
    package init?(
        _ snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot, machineRecordsStart: Int
    ) {
        guard case .completed = snapshot.state.phase, snapshot.timeout == nil, snapshot.postponed.isEmpty,
            let last = snapshot.history.last, snapshot.state == last.after,
            last.after == Self.after(last.before, last.event, last.outcome),
            snapshot.visit == Self.visit(after: last),
            case .succeeded(let request, let file) = last.event, last.before.retainedPercent == nil,
            let beforeRequest = last.before.phase.activeRequest, let percent = last.before.phase.percent,
            let sequence = UInt32(exactly: last.sequence), let recordVisit = UInt32(exactly: last.visit),
            let recordsStart = UInt32(exactly: machineRecordsStart), let request = UInt32(exactly: request),
            beforeRequest == request, let lastRequest = UInt32(exactly: last.before.lastRequest),
            let percent = UInt8(exactly: percent), last.outcome == .moved || last.outcome == .updated
        else { return nil }
        self.file = file
        self.sequence = sequence
        self.recordVisit = recordVisit
        recordsStartOfMachine = recordsStart
        self.request = request
        self.lastRequest = lastRequest
        self.percent = percent
        // Running or paused: the phases with an active request.
        if case .paused = last.before.phase { wasPaused = true } else { wasPaused = false }
        moved = last.outcome == .moved
    }

    /// The state before the last record.
    private var before: TransferModel {
        let (request, percent) = (Int(self.request), Int(self.percent))
        return TransferModel(
            phase: wasPaused
                ? .paused(request: request, percent: percent) : .running(request: request, percent: percent),
            lastRequest: Int(lastRequest))
    }

    /// The machine's last record: the completion.
    package var last: StateMachine<TransferModel, TransferEvent>.Record {
        let before = before
        let event = TransferEvent.succeeded(request: Int(request), file: file)
        let outcome: Outcome = moved ? .moved : .updated
        return Record(
            sequence: Int(sequence), visit: Int(recordVisit), before: before, event: event, outcome: outcome,
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
    package var model: TransferModel { last.after }

    /// What a machine made again for the row is restored from: no timeout, nothing postponed (a completed
    /// transfer has neither), the last record in its history.
    package var snapshot: StateMachine<TransferModel, TransferEvent>.Snapshot {
        let last = last
        return .init(
            state: last.after, visit: Self.visit(after: last), sequence: last.sequence, history: [last], timeout: nil)
    }

    /// Where a reader of a restored machine's records starts: after the record before ``last``, so it reads
    /// ``last`` and nothing counts as missed.
    package var recordsStart: Int { Int(sequence) - 1 }

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
