import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import TerminalUI

/// The dashboard as a demo plays it: the real environment built from a ``World`` whose one clock the script
/// moves (a ``ManualClock``: the machines, the simulated transfers, the upload task and the load server on
/// one timeline) and a fixed seed, so a script gives the same frames on every run.
package struct DemoSession: Sendable {
    /// The environment the app runs on.
    package let environment: DashboardEnvironment
    /// The world's one clock.
    package let clock: ManualClock

    /// A session with everything seeded from `seed`; Mermaid files go to `directory` (the current directory
    /// when nil).
    package init(seed: UInt64 = 1, directory: String? = nil) {
        let clock = ManualClock()
        self.clock = clock
        environment = DashboardEnvironment(
            world: World(clock: clock, seed: seed, directory: directory ?? World.currentDirectory))
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
        clock.step(toward: deadline)
    }

    /// Whether `state` has caught up with the world (``DashboardEnvironment/isSettled(_:)``).
    package func isSettled(_ state: AppState) -> Bool {
        environment.isSettled(state)
    }
}

extension DemoSession: DemoWorld {
    /// The simulated time since the start.
    package var now: Duration { clock.now }

    /// Wakes the player whenever simulated work is scheduled or set up.
    package func whenScheduled(_ wake: (@Sendable () -> Void)?) {
        clock.whenScheduled(wake)
    }

    /// Stops the environment's machines and workers.
    package func stop() {
        environment.stop()
    }
}
