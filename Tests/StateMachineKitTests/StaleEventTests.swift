import StateMachineKit
import Testing

@Suite struct StaleEventTests {
    typealias Machine = StateMachine<Turnstile, TurnstileEvent>
    typealias Record = Machine.Record

    @Test func aSenderDeliversDuringItsVisitOnly() {
        let log = ReportLog()
        let machine = Machine(initial: .locked, label: "gate", reporter: log.reporter, transition: turnstile)
        let first = machine.sender()
        #expect(first.visit == 1)
        #expect(first.isCurrent)
        #expect(first.send(.push) == .stayed)
        #expect(first.send(.coin) == .moved)
        #expect(!first.isCurrent)
        #expect(first.send(.push) == .stale)
        #expect(machine.state == .unlocked)
        #expect(
            machine.history.last
                == Record(
                    sequence: 3, visit: 2, before: .unlocked, event: .push, outcome: .stale, after: .unlocked))
        #expect(
            log.named("statemachine.stale_event") == [
                Report(
                    label: "gate", level: .notice, name: "statemachine.stale_event",
                    message: "dropped push sent for visit 1; the machine is in visit 2",
                    metadata: [
                        "state": "unlocked", "event": "push", "visit": "2", "sender_visit": "1",
                        "reason": "visit 1 ended",
                    ])
            ])
    }

    @Test func reEnteringTheSameStateMakesEarlierSendersStale() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        let before = machine.sender()
        machine.send(.reenter)
        let after = machine.sender()
        #expect(machine.state == .locked)
        #expect(before.send(.coin) == .stale)
        #expect(after.send(.coin) == .moved)
    }

    @Test func anUpdateOrStayKeepsTheSenderCurrent() {
        let machine = StateMachine<Download, DownloadEvent>(
            initial: .running(percent: 0), label: "dl", transition: download)
        let sender = machine.sender()
        #expect(sender.send(.progress(10)) == .updated)
        #expect(sender.send(.pause) == .updated)
        #expect(sender.send(.progress(20)) == .ignored)
        #expect(sender.send(.resume) == .updated)
        #expect(sender.send(.finish) == .moved)
        #expect(sender.send(.start) == .stale)
    }

    @Test func lateWorkFromAnEarlierVisitIsRejected() async {
        let machine = StateMachine<Download, DownloadEvent>(initial: .idle, label: "dl", transition: download)
        let senders = Signals<StateMachine<Download, DownloadEvent>.Sender>()
        machine.whileIn(where: \.isRunning, label: "transfer") { sender in senders.post(sender) }
        machine.send(.start)
        let old = await senders.next()[0]
        machine.send(.restart)
        let current = await senders.next()[0]
        #expect([old.visit, current.visit] == [2, 3])
        #expect(old.send(.finish) == .stale)
        #expect(machine.state == .running(percent: 0))
        #expect(current.send(.finish) == .moved)
        #expect(machine.history.map(\.outcome) == [.moved, .moved, .stale, .moved])
    }

    @Test func aSenderOfAStoppedMachineReturnsStopped() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        let sender = machine.sender()
        machine.stop()
        #expect(sender.send(.coin) == .stopped)
    }
}
