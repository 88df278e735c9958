import Foundation
import StateMachineKit
import Testing

@Suite struct SnapshotTests {
    typealias Machine = StateMachine<Download, DownloadEvent>
    typealias Record = Machine.Record

    @Test func aSnapshotHoldsStateVisitHistoryAndTheTimeLeftOnTheTimeout() {
        let clock = TestClock()
        let machine = Machine(initial: .idle, label: "dl", clock: AnyClock(clock), transition: download)
        machine.send(.start)
        machine.send(.progress(40))
        machine.send(.fail)
        clock.advance(by: .seconds(2))
        #expect(
            machine.snapshot()
                == Machine.Snapshot(
                    state: .waiting(attempt: 1), visit: 3, sequence: 3,
                    history: [
                        Record(
                            sequence: 1, visit: 1, before: .idle, event: .start, outcome: .moved,
                            after: .running(percent: 0)),
                        Record(
                            sequence: 2, visit: 2, before: .running(percent: 0), event: .progress(40),
                            outcome: .updated,
                            after: .running(percent: 40)),
                        Record(
                            sequence: 3, visit: 2, before: .running(percent: 40), event: .fail, outcome: .moved,
                            after: .waiting(attempt: 1)),
                    ],
                    timeout: Machine.PendingTimeout(remaining: .seconds(3), event: .retry)))
    }

    @Test func aRestoredMachineCarriesOnAndReArmsTheTimeoutWithTheTimeLeft() async throws {
        let clock = TestClock()
        let original = Machine(
            initial: .running(percent: 10), label: "dl", clock: AnyClock(clock), transition: download)
        original.send(.fail)
        clock.advance(by: .seconds(4))
        let data = try JSONEncoder().encode(original.snapshot())
        original.stop()

        let laterClock = TestClock()
        let snapshot = try JSONDecoder().decode(Machine.Snapshot.self, from: data)
        let restored = Machine(restoring: snapshot, label: "dl", clock: AnyClock(laterClock), transition: download)
        #expect(restored.snapshot() == snapshot)
        #expect(restored.state == .waiting(attempt: 1))
        #expect(restored.visit == 2)
        await expectRetryFires(restored, on: laterClock, notAfter: .milliseconds(999), butAfter: .milliseconds(1))
        #expect(
            restored.history.last
                == Record(
                    sequence: 2, visit: 2, before: .waiting(attempt: 1), event: .retry, outcome: .moved,
                    after: .running(percent: 0)))
    }

    @Test func aRestoredSenderBelongsToTheRestoredVisit() {
        let original = Machine(initial: .idle, label: "dl", transition: download)
        original.send(.start)
        let restored = Machine(restoring: original.snapshot(), label: "dl", historyLimit: 1, transition: download)
        let (outcome, sender) = restored.sendAndBind(.progress(10))
        #expect(outcome == .updated)
        #expect(sender.visit == 2)
        #expect(sender.send(.finish) == .moved)
        #expect(sender.send(.start) == .stale)
        #expect(restored.history.map(\.sequence) == [4])
    }

    /// Decided in issue 25: a snapshot records where the machine is, not whether the object runs, so a
    /// stopped machine's snapshot (its timeout dropped by the stop) restores as a running machine.
    @Test func aStoppedMachinesSnapshotRestoresARunningMachineInItsFinalStateWithoutItsTimeout() {
        let clock = TestClock()
        let original = Machine(
            initial: .running(percent: 10), label: "dl", clock: AnyClock(clock), transition: download)
        original.send(.fail)
        original.stop()
        let snapshot = original.snapshot()
        #expect(
            snapshot
                == Machine.Snapshot(
                    state: .waiting(attempt: 1), visit: 2, sequence: 1,
                    history: [
                        Record(
                            sequence: 1, visit: 1, before: .running(percent: 10), event: .fail, outcome: .moved,
                            after: .waiting(attempt: 1))
                    ],
                    timeout: nil))
        let restored = Machine(restoring: snapshot, label: "dl", clock: AnyClock(clock), transition: download)
        #expect(!restored.isStopped)
        #expect(clock.pendingSleeps == 0)
        #expect(restored.send(.retry) == .moved)
        #expect(restored.history.last?.sequence == 2)
    }

    @Test func aSnapshotWithoutTimeoutRestoresWithoutOne() {
        let clock = TestClock()
        let original = Machine(initial: .done, label: "dl", clock: AnyClock(clock), transition: download)
        let restored = Machine(
            restoring: original.snapshot(), label: "dl", clock: AnyClock(clock), transition: download)
        #expect(restored.snapshot() == Machine.Snapshot(state: .done, visit: 1, sequence: 0, history: [], timeout: nil))
        #expect(clock.pendingSleeps == 0)
    }
}
