import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI
import Testing

@testable import DashboardApp

/// Issue 26: the screens count what the engine's change feed hands them, every record once, and say how many
/// fell out of a machine's history before they were read.
@Suite(.timeLimit(.minutes(1))) struct ChangeFeedScreenTests {
    private typealias F = DashboardFixtures
    typealias Sender = StateMachine<TransferModel, TransferEvent>.Sender

    /// A transfer machine with a running request, its cancelled run's sender, and the records so far: start,
    /// cancel.
    static func cancelledTransfer(historyLimit: Int = 64) async throws -> (TransferMachine, Sender) {
        let machine = TransferMachine(historyLimit: historyLimit)
        var senders = machine.engine.workSenders(where: { $0.phase.activeRequest != nil }).makeAsyncIterator()
        machine.send(.start)
        let sender = try #require(await senders.next())
        machine.send(.cancel)
        return (machine, sender)
    }

    /// Before, a copy's stale report reached the row only with the machine's next state change: its driver
    /// sent through the run's sender, which woke no reader of the records. The feed wakes its reader itself.
    @Test func aStaleRecordReachesTheRowsTallyWithNoStateChange() async throws {
        let (machine, sender) = try await Self.cancelledTransfer()
        var state = F.app()
        var feed = machine.engine.records().makeAsyncIterator()
        if let batch = await feed.next() { _ = AppReducer.reduce(&state, .transfers(.recordsChanged(row: 1, batch))) }
        #expect(state.transfers.rows[1].tally == RecordTally(lastSequence: 2))
        let before = machine.engine.state
        #expect(sender.send(.progress(request: 1, percent: 5)) == .stale)
        if let batch = await feed.next() { _ = AppReducer.reduce(&state, .transfers(.recordsChanged(row: 1, batch))) }
        #expect(machine.engine.state == before)
        #expect(state.transfers.rows[1].tally == RecordTally(lastSequence: 3, stale: 1))
        #expect(state.transfers.staleEvents == 1)
        machine.engine.stop()
    }

    /// Before, a tally took the newest 64 records and skipped what fell out of them without saying so.
    @Test func aTallyOverMoreRecordsThanTheHistoryHoldsCountsTheMissed() async throws {
        let (machine, sender) = try await Self.cancelledTransfer(historyLimit: 4)
        for percent in 1...9 { sender.send(.progress(request: 1, percent: percent)) }
        var tally = RecordTally()
        var feed = machine.engine.records().makeAsyncIterator()
        if let batch = await feed.next() { tally.add(batch) }
        // Records 1–7 fell out of a history of four: start, cancel and five stale progress reports.
        #expect(tally == RecordTally(lastSequence: 11, stale: 4, missed: 7))
        // Taking the same records in again counts nothing twice.
        tally.add(machine.engine.firstBatch)
        #expect(tally == RecordTally(lastSequence: 11, stale: 4, missed: 7))
        machine.engine.stop()
    }

    @Test func theScreensSayHowManyRecordsTheyMissed() async throws {
        let (machine, sender) = try await Self.cancelledTransfer(historyLimit: 1)
        sender.send(.progress(request: 1, percent: 1))
        var state = F.app()
        _ = AppReducer.reduce(&state, .transfers(.recordsChanged(row: 1, machine.engine.firstBatch)))
        let rendered = AppView.render(state, size: Size(width: 100, height: 30)).text
        #expect(rendered.contains("stale events dropped: 1 · missed: 2"))
        machine.engine.stop()
    }

    /// The History screen keeps the newest rows the feed handed it, and counts what it missed: the records that
    /// fell out between the newest row it holds and the batch's first. A batch read again from the start (a
    /// subscription begun anew, a row's machine let go) repeats rows it holds, and what it says fell out before
    /// them is not missed (before: a History shown again counted it once more each time).
    @Test func theHistoryScreenAppendsTheFeedsRowsAndCountsTheMissed() async throws {
        let (machine, sender) = try await Self.cancelledTransfer()
        for percent in 1...HistoryScreenState.rowLimit { sender.send(.progress(request: 1, percent: percent)) }
        let rows = HistoryRow.rows(machine: "backup.img", history: machine.engine.history)
        var state = HistoryScreenState(machines: ["backup.img"], rows: Array(rows.prefix(10)))
        HistoryFeature.reduce(&state, .recordsChanged(machine: "backup.img", Array(rows[13...]), missed: 3))
        let kept = Array(rows.prefix(10) + rows[13...])
        #expect(state == HistoryScreenState(machines: ["backup.img"], rows: kept, missed: 3))
        #expect(HistoryFeature.status(state).plainText.contains("61 records · 61 stale · 0 invalid · 3 missed · "))
        HistoryFeature.reduce(&state, .recordsChanged(machine: "backup.img", Array(rows[5...]), missed: 5))
        #expect(state == HistoryScreenState(machines: ["backup.img"], rows: kept, missed: 3))
        machine.engine.stop()
    }
}
