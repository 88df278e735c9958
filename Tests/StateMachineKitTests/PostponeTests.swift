import StateMachineTesting
import Testing

@testable import StateMachineKit

/// A gate people queue at: passing while it is not open is postponed until it has opened.
enum Gate: Hashable, Sendable {
    case closed
    case opening(percent: Int)
    case open(passed: [Int])

    var isOpening: Bool {
        if case .opening = self { return true }
        return false
    }

    var isOpen: Bool {
        if case .open = self { return true }
        return false
    }
}

enum GateEvent: Hashable, Sendable {
    case open, tick, opened, close
    case pass(Int)
}

/// Passing is postponed until open (each person passes once); closing while opening is postponed too;
/// `tick` updates the opening without ending its visit.
@Sendable func gate(_ state: Gate, _ event: GateEvent) -> Transition<Gate, GateEvent> {
    switch (state, event) {
    case (.closed, .open): .to(.opening(percent: 0))
    case (.opening(let percent), .tick): .update(.opening(percent: percent + 10))
    case (.opening, .opened): .to(.open(passed: []))
    case (.open(let passed), .pass(let person)):
        passed.contains(person) ? .stay : .update(.open(passed: passed + [person]))
    case (.open, .close): .to(.closed)
    case (.closed, .pass), (.opening, .pass), (.opening, .close): .postpone
    case (.closed, .tick), (.open, .tick), (.closed, .close): .ignore
    case (.closed, .opened), (.open, .opened), (.opening, .open), (.open, .open): .invalid("already \(state)")
    }
}

@Suite struct PostponeTests {
    typealias Machine = StateMachine<Gate, GateEvent>
    typealias Record = Machine.Record

    @Test func postponedEventsAreRetriedInArrivalOrderAfterTheNextTo() {
        let machine = Machine(initial: .opening(percent: 0), label: "gate", transition: gate)
        #expect(machine.send(.pass(1)) == .postponed)
        #expect(machine.send(.pass(2)) == .postponed)
        #expect(machine.postponed == [.pass(1), .pass(2)])
        #expect(machine.send(.opened) == .moved)
        #expect(machine.state == .open(passed: [1, 2]))
        #expect(machine.postponed == [])
        #expect(
            machine.history == [
                Record(
                    sequence: 1, visit: 1, before: .opening(percent: 0), event: .pass(1), outcome: .postponed,
                    after: .opening(percent: 0)),
                Record(
                    sequence: 2, visit: 1, before: .opening(percent: 0), event: .pass(2), outcome: .postponed,
                    after: .opening(percent: 0)),
                Record(
                    sequence: 3, visit: 1, before: .opening(percent: 0), event: .opened, outcome: .moved,
                    after: .open(passed: [])),
                Record(
                    sequence: 4, visit: 2, before: .open(passed: []), event: .pass(1), outcome: .updated,
                    after: .open(passed: [1])),
                Record(
                    sequence: 5, visit: 2, before: .open(passed: [1]), event: .pass(2), outcome: .updated,
                    after: .open(passed: [1, 2])),
            ])
    }

    @Test func anUpdateIsNoStateChangeAndRetriesNothing() {
        let machine = Machine(initial: .opening(percent: 0), label: "gate", transition: gate)
        machine.send(.pass(1))
        #expect(machine.send(.tick) == .updated)
        #expect(machine.state == .opening(percent: 10))
        #expect(machine.postponed == [.pass(1)])
    }

    @Test func eventsPostponedAgainStayAheadOfLaterOnesWhenARetryMovesTheMachine() {
        // closed: 1 and 2 wait; open → opening retries them, both wait again; then close and 3 wait in
        // opening. opened retries 1, 2 (pass), close (→ closed), then 3 waits again in closed.
        let machine = Machine(initial: .closed, label: "gate", transition: gate)
        machine.send(.pass(1))
        machine.send(.pass(2))
        #expect(machine.send(.open) == .moved)
        #expect(machine.postponed == [.pass(1), .pass(2)])
        machine.send(.close)
        machine.send(.pass(3))
        #expect(machine.send(.opened) == .moved)
        #expect(machine.state == .closed)
        #expect(machine.visit == 4)
        #expect(machine.postponed == [.pass(3)])
        #expect(
            machine.history.suffix(5).map { "\($0.visit) \($0.event) \($0.outcome) \($0.after)" } == [
                "2 opened moved open(passed: [])",
                "3 pass(1) updated open(passed: [1])",
                "3 pass(2) updated open(passed: [1, 2])",
                "3 close moved closed",
                "4 pass(3) postponed closed",
            ])
        machine.send(.open)
        machine.send(.opened)
        #expect(machine.state == .open(passed: [3]))
    }

    @Test func theBoundDropsTheEventAndReportsAtWarningLevel() {
        let log = ReportLog()
        let machine = Machine(
            initial: .closed, label: "gate", postponeLimit: 2, reporter: log.reporter, transition: gate)
        #expect(machine.send(.pass(1)) == .postponed)
        #expect(machine.send(.pass(2)) == .postponed)
        #expect(machine.send(.pass(3)) == .overflowed)
        #expect(machine.postponed == [.pass(1), .pass(2)])
        log.expectOnly(
            Report(
                label: "gate", level: .warning, name: "statemachine.postpone_overflow",
                message: "dropped pass(3) in closed: 2 postponed events are already waiting",
                metadata: [
                    "state": "closed", "event": "pass(3)", "visit": "1", "reason": "postponeLimit 2 reached",
                ]))
        #expect(machine.history.last?.outcome == .overflowed)
        #expect(Outcome.overflowed.verdict == .postpone)
    }

    @Test func aRetryIsReportedWithRetriedMetadata() {
        let log = ReportLog()
        let machine = Machine(initial: .opening(percent: 0), label: "gate", reporter: log.reporter, transition: gate)
        machine.send(.pass(7))
        machine.send(.opened)
        #expect(
            log.all == [
                Report(
                    label: "gate", level: .debug, name: "statemachine.postponed",
                    message: "pass(7) postponed in opening(percent: 0) until the next state change",
                    metadata: ["state": "opening(percent: 0)", "event": "pass(7)", "visit": "1"]),
                Report(
                    label: "gate", level: .trace, name: "statemachine.transition",
                    message: "opening(percent: 0) + opened -> open(passed: []) (moved)",
                    metadata: [
                        "state": "opening(percent: 0)", "event": "opened", "visit": "1", "after": "open(passed: [])",
                    ]),
                Report(
                    label: "gate", level: .trace, name: "statemachine.transition",
                    message: "open(passed: []) + pass(7) -> open(passed: [7]) (updated)",
                    metadata: [
                        "state": "open(passed: [])", "event": "pass(7)", "visit": "2", "after": "open(passed: [7])",
                        "retried": "true",
                    ]),
            ])
    }

    @Test func stoppingDropsPostponedEvents() {
        let machine = Machine(initial: .closed, label: "gate", transition: gate)
        machine.send(.pass(1))
        machine.stop()
        #expect(machine.postponed == [])
        #expect(machine.send(.open) == .stopped)
        #expect(machine.history.map(\.event) == [.pass(1)])
    }

    @Test func anEventASenderPostponedIsRetriedInTheNewVisitNotRefusedAsStale() {
        let machine = Machine(initial: .opening(percent: 0), label: "gate", transition: gate)
        let (outcome, sender) = machine.sendAndBind(.pass(4))
        #expect(outcome == .postponed)
        #expect(sender.visit == 1)
        machine.send(.opened)
        #expect(machine.state == .open(passed: [4]))
        #expect(
            machine.history.last
                == Record(
                    sequence: 3, visit: 2, before: .open(passed: []), event: .pass(4), outcome: .updated,
                    after: .open(passed: [4])))
        #expect(sender.send(.pass(5)) == .stale)
    }

    @Test func aStateTimeoutEndsTheVisitAndRetriesThePostponedEvents() async {
        let clock = TestClock()
        let machine = Machine(initial: .closed, label: "gate", clock: AnyClock(clock)) { state, event in
            if case (.closed, .open) = (state, event) {
                return .to(.opening(percent: 0), timeout: StateTimeout(after: .seconds(5), send: .opened))
            }
            return gate(state, event)
        }
        let tester = MachineTester(machine)
        tester.send(.open, .moved, .opening(percent: 0))
        tester.send(.pass(1), .postponed, .opening(percent: 0))
        clock.advance(by: .seconds(5))
        await tester.receive(.opened, .moved, .open(passed: []))
        await tester.receive(.pass(1), .updated, .open(passed: [1]))
        tester.finish()
        #expect(machine.history.map(\.visit) == [1, 2, 2, 3])
    }

    @Test func aPostponedCloseEndsTheWorkOfTheVisitItLeads() async {
        // Work in `open` records what it saw; a postponed close retried on entry ends that visit at once,
        // so the work started for visit 2 is cancelled and the machine is closed in visit 3.
        let signals = Signals<String>()
        let machine = Machine(initial: .opening(percent: 0), label: "gate", transition: gate)
        machine.whileIn(where: \.isOpen, label: "usher") { sender in
            signals.post("started visit \(sender.visit)")
            await untilCancelled()
            signals.post("cancelled visit \(sender.visit)")
        }
        machine.send(.close)
        machine.send(.opened)
        #expect(machine.state == .closed)
        #expect(machine.visit == 3)
        #expect(await signals.next(2) == ["started visit 2", "cancelled visit 2"])
    }

    @Test func workInAPostponingStatePostponesThroughItsSenderAndTheRetryLandsInTheNewVisit() async {
        let machine = Machine(initial: .closed, label: "gate", transition: gate)
        machine.whileIn(where: \.isOpening, label: "door motor") { sender in
            sender.send(.pass(8))
            sender.send(.opened)
        }
        let tester = MachineTester(machine)
        tester.send(.open, .moved, .opening(percent: 0))
        await tester.receive(.pass(8), .postponed, .opening(percent: 0))
        await tester.receive(.opened, .moved, .open(passed: []))
        await tester.receive(.pass(8), .updated, .open(passed: [8]))
        tester.finish()
        #expect(machine.history.map(\.visit) == [1, 2, 2, 3])
    }
}

@Suite struct PostponedSnapshotTests {
    typealias Machine = StateMachine<Gate, GateEvent>

    @Test func aSnapshotCarriesThePostponedEventsAndARestoredMachineRetriesThem() {
        let machine = Machine(initial: .opening(percent: 0), label: "gate", transition: gate)
        machine.send(.pass(1))
        machine.send(.pass(2))
        let snapshot = machine.snapshot()
        #expect(snapshot.postponed == [.pass(1), .pass(2)])
        let restored = Machine(restoring: snapshot, label: "gate", transition: gate)
        #expect(restored.postponed == [.pass(1), .pass(2)])
        restored.send(.opened)
        #expect(restored.state == .open(passed: [1, 2]))
    }
}
