import SeedModels
import StateMachineKit
import Testing

@testable import MachineDrivers

/// A settled row keeps its machine's last record in a few 32-bit parts (issue 23, item 6): every completion reads
/// back whole, and a machine whose last record those parts cannot hold exactly is not settled.
@Suite struct SettledTransferTests {
    typealias Machine = StateMachine<TransferModel, TransferEvent>

    /// The snapshot of a machine whose last record is `event` in `before`, come to `outcome`, at `sequence`.
    private static func snapshot(
        before: TransferModel, event: TransferEvent, outcome: Outcome = .moved, sequence: Int = 7, visit: Int = 3
    ) -> Machine.Snapshot {
        let after = TransferModel.transition(before, event).target(from: before)
        let record = Machine.Record(
            sequence: sequence, visit: visit, before: before, event: event, outcome: outcome, after: after)
        return Machine.Snapshot(
            state: after, visit: outcome == .moved ? visit + 1 : visit, sequence: sequence, history: [record],
            timeout: nil)
    }

    private static let file = "/home/someone/a rather long destination path/photos/2024/IMG_0001.jpg"

    /// The bytes an instance of `object`'s class asks the allocator for: the 16-byte object header, then each
    /// stored property at its alignment, in the order declared (as Swift lays out a class). Read from the type,
    /// not from the block the allocator handed out (`malloc_usable_size`), which glibc may give 16 bytes larger
    /// than asked for when what would be left of a free block is too small to keep.
    private static func instanceSize(of object: AnyObject) -> Int {
        func placed<Part>(_ part: Part, at end: Int) -> Int {
            let alignment = MemoryLayout<Part>.alignment
            return (end + alignment - 1) / alignment * alignment + MemoryLayout<Part>.size
        }
        return Mirror(reflecting: object).children.reduce(16) { end, child in placed(child.value, at: end) }
    }

    /// A success while running and while paused (seed 000 takes a current completion while paused) reads back as
    /// the record, the model, the visit and the snapshot it was made from.
    @Test(arguments: [
        TransferModel(phase: .running(request: 1, percent: 100), lastRequest: 1),
        TransferModel(phase: .paused(request: 4, percent: 37), lastRequest: 4),
        TransferModel(phase: .running(request: Int(UInt32.max), percent: 0), lastRequest: Int(UInt32.max)),
    ])
    func aCompletionReadsBackWhole(before: TransferModel) throws {
        let request = try #require(before.phase.activeRequest)
        let snapshot = Self.snapshot(before: before, event: .succeeded(request: request, file: Self.file))
        let settled = try #require(SettledTransfer(snapshot, machineRecordsStart: 2))
        let last = try #require(snapshot.history.last)
        #expect(settled.last == last)
        #expect(settled.model == snapshot.state)
        #expect(settled.visit == snapshot.visit)
        #expect(settled.machineRecordsStart == 2)
        #expect(settled.recordsStart == last.sequence - 1)
        #expect(settled.snapshot == snapshot)
        // What it asks the allocator for: 55 bytes, which glibc holds in a chunk of 64 (128 bytes, a chunk of 144,
        // when it kept the record's states and event whole).
        #expect(Self.instanceSize(of: settled) == 55)
    }

    /// A machine whose numbers do not fit in 32 bits, or that did not complete, keeps its transfer.
    @Test(arguments: [
        (
            Self.snapshot(
                before: TransferModel(phase: .running(request: 1, percent: 9), lastRequest: 1),
                event: .succeeded(request: 1, file: "f"), sequence: Int(UInt32.max) + 1), 0
        ),
        (
            Self.snapshot(
                before: TransferModel(phase: .running(request: 1, percent: 9), lastRequest: 1),
                event: .succeeded(request: 1, file: "f")), -1
        ),
        (
            Self.snapshot(
                before: TransferModel(phase: .running(request: 1, percent: 9), lastRequest: 1),
                event: .succeeded(request: 1, file: "f")), Int(UInt32.max) + 1
        ),
        (
            Self.snapshot(
                before: TransferModel(phase: .running(request: 1, percent: 9), lastRequest: 1),
                event: .failed(request: 1, message: "disk full")), 0
        ),
        (
            Self.snapshot(
                before: TransferModel(phase: .running(request: 1, percent: 9), lastRequest: 1),
                event: .progress(request: 1, percent: 50), outcome: .updated), 0
        ),
    ])
    func aRecordThePartsCannotHoldIsNotSettled(snapshot: Machine.Snapshot, machineRecordsStart: Int) {
        #expect(SettledTransfer(snapshot, machineRecordsStart: machineRecordsStart) == nil)
    }
}
