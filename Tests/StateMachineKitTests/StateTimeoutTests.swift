import StateMachineTesting
import Testing

@testable import StateMachineKit

@Suite struct StateTimeoutTests {
    typealias Machine = StateMachine<Download, DownloadEvent>
    typealias Record = Machine.Record

    static func machine(_ clock: TestClock, reporter: Reporter? = nil) -> Machine {
        Machine(
            initial: .running(percent: 10), label: "dl", clock: AnyClock(clock), reporter: reporter,
            transition: download)
    }

    /// The report of this suite's machine about its state timeout (debug level).
    static func timeoutReport(_ message: String, _ metadata: [String: String]) -> Report {
        Report(label: "dl", level: .debug, name: "statemachine.timeout", message: message, metadata: metadata)
    }

    /// A machine that failed from `running(percent: 10)` and armed its retry timeout (the sleeper is waiting).
    static func failed(_ clock: TestClock, reporter: Reporter? = nil) async -> Machine {
        let machine = machine(clock, reporter: reporter)
        machine.send(.fail)
        await clock.sleepers(atLeast: 1)
        return machine
    }

    @Test func aTimeoutFiresWithinItsVisit() async {
        let clock = TestClock()
        let log = ReportLog()
        let machine = await Self.failed(clock, reporter: log.reporter)
        await expectRetryFires(machine, on: clock, notAfter: .seconds(4), butAfter: .seconds(1))
        #expect(
            machine.history == [
                Record(
                    sequence: 1, visit: 1, before: .running(percent: 10), event: .fail, outcome: .moved,
                    after: .waiting(attempt: 1)),
                Record(
                    sequence: 2, visit: 2, before: .waiting(attempt: 1), event: .retry, outcome: .moved,
                    after: .running(percent: 0)),
            ])
        log.expectOnly(
            Self.timeoutReport(
                "state timeout fired in waiting(attempt: 1): retry",
                ["state": "waiting(attempt: 1)", "event": "retry", "visit": "2"]))
    }

    @Test func aTimeoutFiresEvenIfTheClockMovedBeforeItsTaskFirstRan() async {
        let clock = TestClock()
        let tester = MachineTester(Self.machine(clock))
        tester.send(.fail, .moved, .waiting(attempt: 1))
        // No waiting for the sleeper: the deadline was fixed when the timeout was armed.
        clock.advance(by: .seconds(5))
        await tester.receive(.retry, .moved, .running(percent: 0))
        tester.finish()
    }

    @Test func leavingCancelsTheTimeout() async {
        let clock = TestClock()
        let machine = await Self.failed(clock)
        machine.send(.restart)
        #expect(clock.pendingSleeps == 0)
        clock.advance(by: .seconds(60))
        #expect(machine.state == .waiting(attempt: 1))
        #expect(machine.history.map(\.event) == [.fail, .restart])
        #expect(machine.snapshot().timeout == nil)
    }

    @Test func reEntryReArmsTheTimeoutFromTheNewVisit() async {
        let clock = TestClock()
        let machine = Machine(initial: .running(percent: 0), label: "dl", clock: AnyClock(clock)) { state, event in
            switch event {
            case .restart: .to(state, timeout: StateTimeout(after: .seconds(5), send: .finish))
            default: download(state, event)
            }
        }
        let tester = MachineTester(machine)
        tester.send(.restart, .moved, .running(percent: 0))
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(3))
        tester.send(.restart, .moved, .running(percent: 0))
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(3))
        // The first visit's timer would have fired by now; only the second one's sleeps.
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: .seconds(2))
        await tester.receive(.finish, .moved, .done)
        tester.finish()
    }

    @Test func updateAndStayKeepTheTimeout() async {
        let clock = TestClock()
        let tester = MachineTester(Self.machine(clock))
        tester.send(.fail, .moved, .waiting(attempt: 1))
        clock.advance(by: .seconds(2))
        tester.send(.fail, .updated, .waiting(attempt: 2))
        tester.send(.pause, .ignored, .waiting(attempt: 2))
        clock.advance(by: .seconds(3))
        await tester.receive(.retry, .moved, .running(percent: 0))
        tester.finish()
    }

    @Test func aTimerThatFiresAfterItsVisitEndedNeverDelivers() {
        let log = ReportLog()
        let machine = Self.machine(TestClock(), reporter: log.reporter)
        machine.send(.fail)
        let timer = machine.core.withLock { $0.work.timer?.id }
        machine.send(.retry)
        // The timer of visit 2 lost the race with the end of its visit.
        #expect(machine.deliver(.retry, origin: .timer(id: timer ?? -1, visit: 2)) == .stale)
        #expect(machine.state == .running(percent: 0))
        #expect(machine.history.map(\.event) == [.fail, .retry])
        log.expectOnly(
            Self.timeoutReport(
                "state timeout for visit 2 expired after its visit ended; retry not delivered",
                ["event": "retry", "visit": "2", "reason": "visit 2 ended"]))
    }

    @Test func stopCancelsTheTimeout() async {
        let clock = TestClock()
        let machine = await Self.failed(clock)
        machine.stop()
        #expect(clock.pendingSleeps == 0)
        clock.advance(by: .seconds(10))
        #expect(machine.state == .waiting(attempt: 1))
    }
}
