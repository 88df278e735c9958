import StateMachineKit
import Support

/// Which visit a machine's simulated `whileIn` work last began in, so a scripted demo can wait until the
/// work a visit asks for is set up on the scheduler before it moves time (the engine starts work in a task
/// of its own, a moment after the event that entered the state).
package final class RunTracker: Sendable {
    private let begun = Locked(0)
    private let scheduler: any SimulationClock

    /// A tracker whose news goes to `scheduler`'s driver.
    package init(scheduler: any SimulationClock) {
        self.scheduler = scheduler
    }

    /// Notes that the work holding `visit`'s sender has begun, then tells the scheduler's driver: it may have
    /// looked, found the work not yet set up and be waiting, and nothing else would wake it.
    package func began(visit: Int) {
        begun.withLock { $0 = max($0, visit) }
        scheduler.workSetUp()
    }

    /// Whether the work `engine`'s current visit asks for (when `runs` says it runs there) has begun.
    package func isSetUp<State, Event>(_ engine: StateMachine<State, Event>, runs: (State) -> Bool) -> Bool {
        let snapshot = engine.snapshot()
        return !runs(snapshot.state) || begun.withLock { $0 } >= snapshot.visit
    }
}
