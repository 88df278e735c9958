import StateMachineKit
import Testing

@Suite struct TransitionsAndHistoryTests {
    typealias Machine = StateMachine<Turnstile, TurnstileEvent>
    typealias Record = Machine.Record

    @Test func startsInTheInitialStateAtVisitOne() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        #expect(machine.state == .locked)
        #expect(machine.visit == 1)
        #expect(machine.history == [])
    }

    @Test func eachEventIsRecordedWithItsOutcome() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        let outcomes = [TurnstileEvent.coin, .coin, .push, .push, .kick, .kick].map { machine.send($0) }
        #expect(outcomes == [.moved, .ignored, .moved, .stayed, .moved, .invalid("already broken")])
        #expect(
            machine.history == [
                Record(sequence: 1, visit: 1, before: .locked, event: .coin, outcome: .moved, after: .unlocked),
                Record(sequence: 2, visit: 2, before: .unlocked, event: .coin, outcome: .ignored, after: .unlocked),
                Record(sequence: 3, visit: 2, before: .unlocked, event: .push, outcome: .moved, after: .locked),
                Record(sequence: 4, visit: 3, before: .locked, event: .push, outcome: .stayed, after: .locked),
                Record(sequence: 5, visit: 3, before: .locked, event: .kick, outcome: .moved, after: .broken),
                Record(
                    sequence: 6, visit: 4, before: .broken, event: .kick, outcome: .invalid("already broken"),
                    after: .broken),
            ])
        #expect(machine.state == .broken)
        #expect(machine.visit == 4)
    }

    @Test(arguments: [
        (TurnstileEvent.coin, Outcome.moved, Turnstile.unlocked, 2),
        (.push, .stayed, .locked, 1),
        (.reenter, .moved, .locked, 2),
        (.repair, .invalid("nothing to repair"), .locked, 1),
    ])
    func visitsAdvanceOnlyOnTo(event: TurnstileEvent, outcome: Outcome, state: Turnstile, visit: Int) {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        #expect(machine.send(event) == outcome)
        #expect(machine.state == state)
        #expect(machine.visit == visit)
    }

    @Test func updateKeepsTheVisitAndChangesTheValue() {
        let machine = StateMachine<Download, DownloadEvent>(initial: .idle, label: "dl", transition: download)
        let outcomes = [DownloadEvent.start, .progress(40), .pause, .resume, .progress(90)].map { machine.send($0) }
        #expect(outcomes == [.moved, .updated, .updated, .updated, .updated])
        #expect(machine.state == .running(percent: 90))
        #expect(machine.visit == 2)
    }

    @Test func reEntryIsANewVisitWithTheSameState() {
        let machine = Machine(initial: .unlocked, label: "gate", transition: turnstile)
        machine.send(.reenter)
        machine.send(.reenter)
        #expect(machine.state == .unlocked)
        #expect(machine.visit == 3)
        #expect(machine.history.map(\.visit) == [1, 2])
    }

    @Test func invalidLeavesTheMachineWhereItIsAndReportsAtErrorLevel() {
        let log = ReportLog()
        let machine = Machine(initial: .locked, label: "gate", reporter: log.reporter, transition: turnstile)
        #expect(machine.send(.repair) == .invalid("nothing to repair"))
        #expect(machine.state == .locked)
        #expect(machine.visit == 1)
        log.expectOnly(
            Report(
                label: "gate", level: .error, name: "statemachine.invalid",
                message: "repair is invalid in locked: nothing to repair",
                metadata: ["state": "locked", "event": "repair", "visit": "1", "reason": "nothing to repair"]))
    }

    @Test func ignoreDropsTheEventWithAtMostATraceReport() {
        let log = ReportLog()
        let machine = Machine(initial: .unlocked, label: "gate", reporter: log.reporter, transition: turnstile)
        #expect(machine.send(.coin) == .ignored)
        #expect(machine.state == .unlocked)
        #expect(
            log.all == [
                Report(
                    label: "gate", level: .trace, name: "statemachine.ignored", message: "coin ignored in unlocked",
                    metadata: ["state": "unlocked", "event": "coin", "visit": "1"])
            ])
    }

    @Test(arguments: [0, 1, 3, 64])
    func historyIsARingOfTheNewestRecords(limit: Int) {
        let machine = Machine(initial: .locked, label: "gate", historyLimit: limit, transition: turnstile)
        for _ in 0..<50 {
            machine.send(.coin)
            machine.send(.push)
        }
        let sequences = machine.history.map(\.sequence)
        #expect(sequences == Array((101 - min(limit, 100))..<101))
        #expect(
            machine.history.last
                == (limit == 0
                    ? nil
                    : Record(
                        sequence: 100, visit: 100, before: .unlocked, event: .push, outcome: .moved, after: .locked)))
    }

    @Test func afterStopEverySendReturnsStoppedAndNothingIsRecorded() {
        let machine = Machine(initial: .locked, label: "gate", transition: turnstile)
        machine.send(.coin)
        machine.stop()
        #expect(machine.isStopped)
        #expect(machine.send(.push) == .stopped)
        #expect(machine.sendAndBind(.push).sender.send(.push) == .stopped)
        #expect(machine.state == .unlocked)
        #expect(machine.history.count == 1)
    }

    @Test(arguments: [
        (Outcome.moved, Verdict?.some(.to)), (.updated, .update), (.stayed, .stay), (.ignored, .ignore),
        (.invalid("x"), .invalid), (.stopped, nil), (.stale, nil),
    ])
    func outcomeVerdicts(outcome: Outcome, verdict: Verdict?) {
        #expect(outcome.verdict == verdict)
    }

    @Test func recordsAndOutcomesPrintInCanonicalForm() {
        let record = StateMachine<Download, DownloadEvent>.Record(
            sequence: 7, visit: 2, before: .running(percent: 10), event: .progress(20), outcome: .updated,
            after: .running(percent: 20))
        #expect(
            record.description == "#7 visit 2: running(percent: 10) + progress(20) -> running(percent: 20) (updated)")
        #expect(Outcome.invalid("no \"coin\"").description == #"invalid("no \"coin\"")"#)
    }
}
