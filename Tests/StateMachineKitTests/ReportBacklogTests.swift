import Testing

@testable import StateMachineKit

/// The decisions that bound the reports waiting for a slow reporter, driven on the core directly.
@Suite struct ReportBacklogTests {
    typealias Machine = StateMachine<Int, Int>

    /// A machine whose reporter is, as far as the core knows, busy on thread `deliverer` with `waiting`
    /// notes behind it.
    static func machine(deliverer: UInt, waiting: Int) -> Machine {
        let machine = Machine(initial: 0, label: "backlog", historyLimit: 0, reporter: Reporter { _ in }) {
            _, event in .update(event)
        }
        machine.core.withLock { core in
            core.reportQueue = .delivering(thread: deliverer)
            for event in 0..<waiting {
                core.note(
                    .record(
                        Machine.Record(sequence: event, visit: 1, before: 0, event: event, outcome: .updated, after: 0),
                        source: .event))
            }
        }
        return machine
    }

    /// What sending one more event decides: whether the sender must wait for the backlog to shrink.
    static func sendWaits(_ machine: Machine) -> Bool {
        machine.core.withLock { core in
            core.apply(1, origin: .anyone, bind: false, transition: machine.transition, clock: machine.clock).1?
                .waitsForBacklog ?? false
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
}
