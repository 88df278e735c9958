import StateMachineKit
import Testing

@Suite struct StaleEventTests {
    typealias Machine = StateMachine<Turnstile, TurnstileEvent>
    typealias Record = Machine.Record
    typealias Downloads = StateMachine<Download, DownloadEvent>

    @Test func aSenderDeliversDuringItsVisitOnly() {
        let log = ReportLog()
        let machine = Machine(initial: .locked, label: "gate", reporter: log.reporter, transition: turnstile)
        let (outcome, first) = machine.sendAndBind(.push)
        #expect(outcome == .stayed)
        #expect(first.visit == 1)
        #expect(first.isCurrent)
        #expect(first.send(.coin) == .moved)
        #expect(!first.isCurrent)
        #expect(first.cancellationCause == .stateExited)
        #expect(first.send(.push) == .stale)
        #expect(machine.state == .unlocked)
        #expect(
            machine.history.last
                == Record(
                    sequence: 3, visit: 2, before: .unlocked, event: .push, outcome: .stale, after: .unlocked))
        log.expectOnly(
            Report(
                label: "gate", level: .notice, name: "statemachine.stale_event",
                message: "dropped push sent for visit 1; the machine is in visit 2",
                metadata: [
                    "state": "unlocked", "event": "push", "visit": "2", "sender_visit": "1",
                    "reason": "visit 1 ended", "cause": "stateExited",
                ]))
    }

    @Test func aBoundSenderBelongsToTheVisitItsOwnEventBegan() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        let (outcome, sender) = machine.sendAndBind(.coin)
        #expect(outcome == .moved)
        #expect(sender.visit == 2)
        #expect(sender.send(.coin) == .ignored)
        #expect(sender.send(.push) == .moved)
        #expect(sender.send(.coin) == .stale)
    }

    @Test func reEnteringTheSameStateMakesEarlierSendersStale() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        let before = machine.sendAndBind(.push).sender
        let after = machine.sendAndBind(.reenter).sender
        #expect(machine.state == .locked)
        #expect([before.visit, after.visit] == [1, 2])
        #expect(before.send(.coin) == .stale)
        #expect(after.send(.coin) == .moved)
    }

    @Test func anUpdateOrStayKeepsAVisitsSenderCurrent() {
        let machine = Downloads(initial: .running(percent: 0), label: "dl", transition: download)
        let (outcome, sender) = machine.sendAndBind(.progress(10))
        #expect(outcome == .updated)
        #expect(sender.send(.pause) == .updated)
        #expect(sender.send(.progress(20)) == .ignored)
        #expect(sender.send(.resume) == .updated)
        #expect(sender.send(.finish) == .moved)
        #expect(sender.send(.start) == .stale)
    }

    /// A download with `transfer` work while running, started: the machine and the sender of that run.
    static func startedDownload(reporter: Reporter) async -> (
        machine: Downloads, senders: Signals<Downloads.Sender>, first: Downloads.Sender
    ) {
        let machine = Downloads(initial: .idle, label: "dl", reporter: reporter, transition: download)
        let senders = Signals<Downloads.Sender>()
        machine.whileIn(where: \.isRunning, label: "transfer") { sender in senders.post(sender) }
        machine.send(.start)
        return (machine, senders, await senders.next()[0])
    }

    @Test func lateWorkFromAnEarlierVisitIsRejected() async {
        let machine = Downloads(initial: .idle, label: "dl", transition: download)
        let senders = Signals<Downloads.Sender>()
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

    /// The hole of issue 12: pause (an `.update` leaving the predicate) cancels the run, resume (an
    /// `.update` into it) starts a new one in the same visit; the cancelled run must not move the machine.
    @Test func workCancelledByAnUpdateStaysStaleAfterANewRunStartsInTheSameVisit() async {
        let log = ReportLog()
        let (machine, senders, cancelled) = await Self.startedDownload(reporter: log.reporter)
        machine.send(.pause)
        machine.send(.resume)
        let resumed = await senders.next()[0]
        #expect([cancelled.visit, resumed.visit, machine.visit] == [2, 2, 2])
        #expect(cancelled.cancellationCause == .stateExited)
        #expect(!cancelled.isCurrent)
        #expect(cancelled.send(.progress(99)) == .stale)
        #expect(machine.state == .running(percent: 0))
        #expect(resumed.send(.progress(40)) == .updated)
        #expect(
            machine.history.suffix(2)
                == [
                    Downloads.Record(
                        sequence: 4, visit: 2, before: .running(percent: 0), event: .progress(99), outcome: .stale,
                        after: .running(percent: 0)),
                    Downloads.Record(
                        sequence: 5, visit: 2, before: .running(percent: 0), event: .progress(40), outcome: .updated,
                        after: .running(percent: 40)),
                ])
        log.expectOnly(
            Report(
                label: "dl", level: .notice, name: "statemachine.stale_event",
                message: "dropped progress(99) sent for visit 2; an update in visit 2 ended transfer",
                metadata: [
                    "state": "running(percent: 0)", "event": "progress(99)", "visit": "2", "sender_visit": "2",
                    "reason": "an update in visit 2 ended transfer", "cause": "stateExited", "work": "transfer",
                ]))
    }

    @Test func workCancelledByStopIsStaleRecordedAndReportedWithTheCause() async {
        let log = ReportLog()
        let (machine, _, sender) = await Self.startedDownload(reporter: log.reporter)
        machine.stop()
        #expect(sender.cancellationCause == .machineStopped)
        #expect(sender.send(.progress(5)) == .stale)
        #expect(machine.send(.progress(6)) == .stopped)
        #expect(
            machine.history.last
                == Downloads.Record(
                    sequence: 2, visit: 2, before: .running(percent: 0), event: .progress(5), outcome: .stale,
                    after: .running(percent: 0)))
        #expect(
            log.named("statemachine.stale_event").map(\.metadata) == [
                [
                    "state": "running(percent: 0)", "event": "progress(5)", "visit": "2", "sender_visit": "2",
                    "reason": "the machine stopped", "cause": "machineStopped", "work": "transfer",
                ]
            ])
    }

    @Test func aSenderBoundAfterStopReturnsStoppedAndRecordsNothing() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        let bound = machine.sendAndBind(.push).sender
        machine.stop()
        let (outcome, late) = machine.sendAndBind(.coin)
        #expect(outcome == .stopped)
        #expect(late.send(.coin) == .stopped)
        #expect(!late.isCurrent)
        #expect(bound.cancellationCause == .machineStopped)
        #expect(bound.send(.coin) == .stale)
        #expect(machine.history.map(\.outcome) == [.stayed, .stale])
    }

    @Test func aSenderBoundAfterStopWasEndedByTheStop() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        machine.stop()
        let late = machine.sendAndBind(.coin).sender
        #expect(late.cancellationCause == .machineStopped)
        #expect(late.send(.coin) == .stopped)
    }

    @Test func aSenderOfAMachineThatIsGoneReturnsStopped() {
        var machine: Machine? = Machine(initial: .locked, label: "gate", transition: turnstile)
        let sender = machine?.sendAndBind(.push).sender
        machine = nil
        #expect(sender?.send(.coin) == .stopped)
        #expect(sender?.isCurrent == false)
    }

    /// Each of many racing callers gets a sender of exactly the visit its own event began: sending and
    /// binding are one step, so no other caller's event can slip in between (as it could between a
    /// `send` and a separate read of the visit).
    @Test(.serialized, arguments: 0..<50)
    func sendAndBindIsAtomicUnderRacingCallers(repetition: Int) async {
        let machine = StateMachine<Int, Int>(initial: 0, label: "racer", historyLimit: 1000) { _, event in .to(event) }
        let bound = await withTaskGroup(of: [(event: Int, visit: Int)].self) { group in
            for caller in 0..<8 {
                group.addTask {
                    (0..<100).map { index in
                        let event = caller * 1000 + index
                        return (event, machine.sendAndBind(event).sender.visit)
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let began = Dictionary(uniqueKeysWithValues: machine.history.map { ($0.event, $0.visit + 1) })
        #expect(bound.count == 800)
        #expect(bound.filter { began[$0.event] != $0.visit }.map(\.event) == [])
    }
}
