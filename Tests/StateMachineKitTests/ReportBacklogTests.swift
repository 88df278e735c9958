import Testing

@testable import StateMachineKit

/// Who delivers reports, and the decisions that bound the reports waiting for a slow reporter, driven on
/// the core directly.
@Suite struct ReportBacklogTests {
    typealias Machine = StateMachine<Int, Int>

    /// A machine whose reporter is, as far as the core knows, busy on thread `deliverer` with `waiting`
    /// notes behind it.
    static func machine(deliverer: UInt, waiting: Int) -> Machine {
        let machine = Machine(initial: 0, label: "backlog", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        machine.core.withLock { core in
            #expect(core.delivery.claim())
            core.deliverer = deliverer
            for event in 0..<waiting {
                core.note(
                    .record(
                        Machine.RecordNote(
                            visit: 1, before: 0, event: event, outcome: .updated, after: event, source: .event,
                            postponeLimit: 0)))
            }
        }
        return machine
    }

    /// What sending one more event decides: whether the sender must wait for the backlog to shrink.
    static func sendWaits(_ machine: Machine) -> Bool {
        var report: Machine.Note?
        return machine.core.withLock { core in
            core.apply(
                1, origin: .anyone, bind: false, transition: machine.transition, clock: machine.clock, report: &report
            ).1?.waitsForBacklog ?? false
        }
    }

    @Test func aSenderWaitsOnceTheBacklogOfAnotherThreadsDelivererIsFull() {
        let other = currentThread() &+ 1
        let full = Self.machine(deliverer: other, waiting: Machine.Core.reportBacklog)
        let roomy = Self.machine(deliverer: other, waiting: Machine.Core.reportBacklog - 2)
        #expect([Self.sendWaits(full), Self.sendWaits(roomy)] == [true, false])
        #expect(full.core.withLock { $0.backlogIsFull })
    }

    @Test func theDeliveringThreadItselfNeverWaits() {
        let machine = Self.machine(deliverer: currentThread(), waiting: Machine.Core.reportBacklog)
        #expect(!Self.sendWaits(machine))
    }

    /// Applies `event` under the lock as `send` does and returns the report it was given to deliver.
    static func apply(_ event: Int, to machine: Machine) -> (first: Machine.Note?, rest: Int) {
        var report: Machine.Note?
        let rest = machine.core.withLock { core in
            core.apply(
                event, origin: .anyone, bind: false, transition: machine.transition, clock: machine.clock,
                report: &report
            ).1?.reports.count ?? 0
        }
        return (report, rest)
    }

    /// The event of a record note (`nil` for any other note).
    static func event(of note: Machine.Note?) -> Int? {
        guard case .record(let record) = note else { return nil }
        return record.event
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
        #expect(machine.core.withLock { $0.notes.isEmpty })
    }

    @Test func notesQueuedWhileAnotherCallerDeliversKeepThatDelivererUntilItFetchesThem() {
        let machine = Machine(initial: 0, label: "busy", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        let delivering = Self.apply(1, to: machine)
        // While the first caller delivers, a second one's report waits for it instead.
        let waiting = Self.apply(2, to: machine)
        #expect(Self.event(of: waiting.first) == nil && waiting.rest == 0)
        #expect(Self.event(of: delivering.first) == 1)
        #expect(!machine.delivery.stepDownUnlessQueued())
        var first: Machine.Note?
        var rest: [Machine.Note] = []
        #expect(machine.core.withLock { $0.nextReports(first: &first, rest: &rest) })
        #expect(Self.event(of: first) == 2)
        #expect(machine.delivery.stepDownUnlessQueued())
        #expect(!machine.delivery.isActive)
    }

    @Test func aDelivererOfSeveralNotesGivesTheirBufferBackUnderTheLock() {
        let machine = Machine(initial: 0, label: "many", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        _ = Self.apply(1, to: machine)
        for event in 2...4 { _ = Self.apply(event, to: machine) }
        var first: Machine.Note?
        var rest: [Machine.Note] = []
        #expect(machine.core.withLock { $0.nextReports(first: &first, rest: &rest) })
        #expect(first == nil)
        #expect(rest.map { Self.event(of: $0) } == [2, 3, 4])
        rest.removeAll(keepingCapacity: true)
        #expect(!machine.core.withLock { $0.nextReports(first: &first, rest: &rest) })
        #expect(machine.core.withLock { $0.spare.capacity } >= 3)
        #expect(!machine.delivery.isActive)
    }

    @Test func theNoteOfAnEventBetweenSmallStatesFitsInsideAReport() {
        // A report's text is an existential: values of up to three words are stored in it, larger ones in
        // an allocation per report. Turnstile-sized states and events must stay inside.
        typealias Small = StateMachine<Bool, Bool>
        #expect(MemoryLayout<Small.RecordNote>.size <= 3 * MemoryLayout<Int>.size)
    }
}
