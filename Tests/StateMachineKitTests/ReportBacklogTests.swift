import Testing

@testable import StateMachineKit

/// Who delivers reports, who waits for them and when the delivery is handed over, driven on the core directly.
@Suite struct ReportBacklogTests {
    typealias Machine = StateMachine<Int, Int>

    /// A machine whose reporter is, as far as the core knows, busy on another caller with `waiting` notes
    /// behind it.
    static func busy(waiting: Int) -> Machine {
        let machine = Machine(initial: 0, label: "busy", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        _ = apply(-1, to: machine)
        for event in 0..<waiting { _ = DeliveringThread.delivering { apply(event, to: machine) } }
        return machine
    }

    /// Applies `event` under the lock as `send` does and returns the waiter it must block on, if any.
    static func waiter(applying event: Int, to machine: Machine) -> ReportWaiter? {
        let action = machine.core.withLock { core in
            var outcome = Outcome.stopped
            return core.apply(
                event, from: nil, bind: false, transition: machine.transition, clock: machine.clock, outcome: &outcome)
        }
        switch consume action {
        case .none: return nil
        case .report: return nil
        case .perform(let pending): return pending.take().effects.waiter
        }
    }

    @Test func aSenderWhoseReportsQueueBehindAnotherCallersDeliveryWaitsForThem() {
        let machine = Self.busy(waiting: 0)
        let waiter = Self.waiter(applying: 1, to: machine)
        #expect(waiter?.ticket == 2)
        #expect(machine.core.withLock { $0.reports.waiters.map(\.ticket) } == [2])
    }

    @Test func aSenderWithNoReportOfItsOwnNeverWaits() {
        let machine = Machine(
            initial: 0, label: "quiet", historyLimit: 0, reporter: Reporter(minimumLevel: .error) { _ in }
        ) {
            _, event in event < 0 ? .invalid("negative") : .update(event)
        }
        _ = Self.apply(-1, to: machine)
        _ = DeliveringThread.delivering { Self.apply(-2, to: machine) }
        // Another caller delivers, with a note queued; this event makes no report.
        #expect(Self.waiter(applying: 1, to: machine) == nil)
        #expect(Self.waiter(applying: -3, to: machine)?.ticket == 3)
    }

    @Test func aSendFromInsideASinkNeverWaits() {
        let machine = Self.busy(waiting: 0)
        let waiter = DeliveringThread.delivering { Self.waiter(applying: 1, to: machine) }
        #expect(waiter == nil)
        #expect(machine.core.withLock { $0.reports.notes.count } == 1)
    }

    /// What a deliverer is told to do next, with the waiting senders named by their tickets.
    enum Next: Equatable {
        case deliver(taken: [Int], first: Int?, rest: [Int?])
        case done
        case handOver(to: Int)
    }

    /// What the deliverer of `machine` is given after delivering with `allowance` left.
    static func next(_ machine: Machine, allowance: Int) -> Next {
        var first: Machine.Note?
        var rest: [Machine.Note] = []
        switch machine.core.withLock({ $0.nextReports(first: &first, rest: &rest, allowance: allowance) }) {
        case .deliver(let taken):
            return .deliver(
                taken: taken.map(\.ticket), first: Self.event(of: first), rest: rest.map { Self.event(of: $0) })
        case .done:
            return .done
        case .handOver(let next):
            return .handOver(to: next.ticket)
        }
    }

    @Test func aDelivererTakesAtMostItsAllowanceAndResumesTheSendersItTookFrom() {
        let machine = Self.busy(waiting: 0)
        let tickets = (1...3).map { Self.waiter(applying: $0, to: machine)?.ticket }
        #expect(tickets == [2, 3, 4])
        #expect(Self.next(machine, allowance: 2) == .deliver(taken: [2, 3], first: nil, rest: [1, 2]))
        #expect(machine.core.withLock { $0.reports.waiters.map(\.ticket) } == [4])
    }

    @Test func aDelivererThatHasDeliveredItsShareHandsTheDeliveryToTheOldestWaitingSender() {
        let machine = Self.busy(waiting: 0)
        for event in 1...2 { _ = Self.waiter(applying: event, to: machine) }
        #expect(Self.next(machine, allowance: 0) == .handOver(to: 2))
        #expect(machine.delivery.isActive)
        // The sender handed the delivery fetches the notes: it cannot step down past them.
        #expect(!machine.delivery.stepDownUnlessQueued())
        #expect(machine.core.withLock { $0.reports.notes.count } == 2)
    }

    @Test func withNobodyWaitingADelivererGoesOnPastItsAllowance() {
        let machine = Self.busy(waiting: 3)
        #expect(Self.next(machine, allowance: 0) == .deliver(taken: [], first: nil, rest: [0, 1, 2]))
    }

    /// Applies `event` under the lock as `send` does and returns the report it was given to deliver.
    static func apply(_ event: Int, to machine: Machine) -> (first: Machine.Note?, rest: Int) {
        let action = machine.core.withLock { core in
            var outcome = Outcome.stopped
            return core.apply(
                event, from: nil, bind: false, transition: machine.transition, clock: machine.clock, outcome: &outcome)
        }
        switch consume action {
        case .none: return (nil, 0)
        case .report(let report): return (report, 0)
        case .perform(let pending):
            let (effects, report) = pending.take()
            return (report, effects.reports.count)
        }
    }

    /// The event of a record note (`nil` for any other note).
    static func event(of note: Machine.Note?) -> Int? {
        guard case .record(let text, _, _) = note else { return nil }
        return text.source?.event
    }

    @Test func aSenderNobodyElseDeliversForGetsItsReportAndStepsDownWithoutTheLock() {
        let machine = Machine(initial: 0, label: "alone", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        let given = Self.apply(7, to: machine)
        #expect([Self.event(of: given.first), given.rest] == [7, 0])
        #expect(machine.delivery.isActive)
        #expect(machine.delivery.stepDownUnlessQueued())
        #expect(!machine.delivery.isActive)
        // The next event's sender delivers again, and the queue kept nothing behind.
        #expect(Self.event(of: Self.apply(8, to: machine).first) == 8)
        #expect(machine.core.withLock { $0.reports.notes.isEmpty })
    }

    @Test func notesQueuedWhileAnotherCallerDeliversKeepThatDelivererUntilItFetchesThem() {
        let machine = Machine(initial: 0, label: "busy", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        let delivering = Self.apply(1, to: machine)
        // While the first caller delivers, a second one's report waits for it instead.
        let waiting = DeliveringThread.delivering { Self.apply(2, to: machine) }
        #expect(Self.event(of: waiting.first) == nil && waiting.rest == 0)
        #expect(Self.event(of: delivering.first) == 1)
        #expect(!machine.delivery.stepDownUnlessQueued())
        var first: Machine.Note?
        var rest: [Machine.Note] = []
        _ = machine.core.withLock { $0.nextReports(first: &first, rest: &rest, allowance: 64) }
        #expect(Self.event(of: first) == 2)
        #expect(machine.delivery.stepDownUnlessQueued())
        #expect(!machine.delivery.isActive)
    }

    @Test func aDelivererOfSeveralNotesGivesTheirBufferBackUnderTheLock() {
        let machine = Machine(initial: 0, label: "many", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        _ = Self.apply(1, to: machine)
        for event in 2...4 { _ = DeliveringThread.delivering { Self.apply(event, to: machine) } }
        var first: Machine.Note?
        var rest: [Machine.Note] = []
        _ = machine.core.withLock { $0.nextReports(first: &first, rest: &rest, allowance: 64) }
        #expect(first == nil)
        #expect(rest.map { Self.event(of: $0) } == [2, 3, 4])
        rest.removeAll(keepingCapacity: true)
        let steppedDown = machine.core.withLock { core -> Bool in
            if case .done = core.nextReports(first: &first, rest: &rest, allowance: 61) { return true }
            return false
        }
        #expect(steppedDown)
        #expect(machine.core.withLock { $0.reports.spare.capacity } >= 3)
        #expect(!machine.delivery.isActive)
    }

    @Test func theNoteOfAnEventBetweenSmallStatesFitsInsideAReport() {
        // A report's text is an existential: values of up to three words are stored in it, larger ones in
        // an allocation per report. Turnstile-sized states and events must stay inside.
        typealias Small = StateMachine<Bool, Bool>
        #expect(MemoryLayout<Small.RecordNote>.size <= 3 * MemoryLayout<Int>.size)
    }
}
