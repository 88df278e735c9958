import MachineDrivers
import ScreenStates
import StateMachineKit
import Support
import TerminalUI

/// The dashboard as a demo plays it: the real environment built from a ``World`` with every clock under the
/// script's control — the simulated transfers, the upload task and the load server on one
/// ``ManualScheduler``, the machines on a ``TestClock`` — and a fixed seed, so a script gives the same frames
/// on every run.
package struct DemoSession: Sendable {
    /// The environment the app runs on.
    package let environment: DashboardEnvironment
    /// The machines' clock.
    package let clock: TestClock
    /// Where all simulated work waits.
    package let scheduler: ManualScheduler

    /// A session with everything seeded from `seed`; Mermaid files go to `directory` (the current directory
    /// when nil).
    package init(seed: UInt64 = 1, directory: String? = nil) {
        let clock = TestClock()
        let scheduler = ManualScheduler()
        self.clock = clock
        self.scheduler = scheduler
        environment = DashboardEnvironment(
            world: World(
                clock: AnyClock(clock), scheduler: scheduler, seed: seed,
                directory: directory ?? World.currentDirectory))
    }

    /// The simulated transfers (the Transfers screen's, typed).
    package var simulatedTransfers: [SimulatedTransfer] {
        environment.runtime(TransfersFeature.self).transfers.compactMap { $0 as? SimulatedTransfer }
    }

    /// The app the demo drives: exactly the dashboard's.
    package var app: App<AppState, AppAction, AppEffect> { Dashboard.app(environment) }

    /// Moves simulated time to `deadline` (time since the start), one due callback at a time: true when a
    /// callback ran (the world must settle before the next), false once time stands at `deadline`.
    package func step(toward deadline: Duration) -> Bool {
        let ran = scheduler.runNext(dueBy: deadline)
        if !ran { scheduler.advance(to: deadline) }
        clock.advance(by: scheduler.now - clock.now.offset)
        return ran
    }

    /// Whether `state` has caught up with the world (``DashboardEnvironment/isSettled(_:)``).
    package func isSettled(_ state: AppState) -> Bool {
        environment.isSettled(state)
    }
}

extension DemoSession: DemoWorld {
    /// The simulated time since the start: the scheduler's.
    package var now: Duration { scheduler.now }

    /// Wakes the player whenever simulated work is scheduled or set up.
    package func whenScheduled(_ wake: (@Sendable () -> Void)?) {
        scheduler.whenScheduled(wake)
    }

    /// Stops the environment's machines and workers.
    package func stop() {
        environment.stop()
    }
}
