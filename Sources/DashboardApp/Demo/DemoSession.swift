import MachineDrivers
import ScreenStates
import StateMachineKit
import Support
import TerminalUI

/// The dashboard as a demo plays it: the real environment with every clock under the script's control — the
/// simulated transfers, the upload task and the load server on one ``ManualScheduler``, the machines on a
/// ``TestClock`` — and fixed seeds, so a script gives the same frames on every run.
package struct DemoSession: Sendable {
    /// The environment the app runs on.
    package let environment: DashboardEnvironment
    /// The simulated transfers (the environment's, typed).
    package let simulatedTransfers: [SimulatedTransfer]
    /// The machines' clock.
    package let clock: TestClock
    /// Where all simulated work waits.
    package let scheduler: ManualScheduler

    /// A session with everything seeded from `seed`; Mermaid files go to `directory`.
    package init(seed: UInt64 = 1, directory: String? = nil) {
        let clock = TestClock()
        let scheduler = ManualScheduler()
        let machineClock = AnyClock(clock)
        let transfers = TransfersRuntime(scheduler: scheduler, clock: machineClock, seed: seed)
        self.clock = clock
        self.scheduler = scheduler
        simulatedTransfers = transfers.transfers.compactMap { $0 as? SimulatedTransfer }
        environment = DashboardEnvironment(
            transfers: transfers,
            upload: UploadRuntime(
                owner: UploadOwner(
                    machine: UploadMachine(clock: machineClock), scheduler: scheduler,
                    random: SplitMix64(seed: seed))),
            load: LoadRuntime(machine: LoadMachine(clock: machineClock), server: LoadServer(scheduler: scheduler)),
            graph: directory.map(GraphRuntime.init(directory:)) ?? GraphRuntime(), scheduler: scheduler)
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

    /// Whether `state` has caught up with the world: it shows every machine's current state and newest
    /// record (and, on the History screen, the selected machine's newest record), every worker's status, the
    /// work each machine's visit asks for has begun, and every status message shown has its timer set and not
    /// fired. A deterministic condition on the machines, read
    /// only to know when to take the next step; the state itself came through the subscriptions.
    package func isSettled(_ state: AppState) -> Bool {
        let environment = self.environment
        for (row, transfer) in simulatedTransfers.enumerated() {
            guard state.transfers.rows.indices.contains(row), transfer.isSetUp else { return false }
            let shown = state.transfers.rows[row]
            let machine = transfer.machine.engine
            if shown.model != machine.state || shown.tally.lastSequence != Self.newest(machine)
                || shown.driverStatus != transfer.status
            {
                return false
            }
        }
        let upload = environment.upload
        guard upload.isSetUp, state.upload.upload == upload.machine.state,
            state.upload.tally.lastSequence == Self.newest(upload.machine.engine)
        else { return false }
        let load = environment.load
        guard load.isSetUp, state.load.load == load.machine.state,
            state.load.tally.lastSequence == Self.newest(load.machine.engine), environment.statusTimersAreSet(state)
        else { return false }
        guard state.screen == .history, let name = state.history.machine else { return true }
        return state.history.rows.last?.sequence ?? 0 == newest(named: name)
    }

    /// The sequence number of the newest record of the machine called `name`.
    private func newest(named name: String) -> Int {
        if name == DashboardEnvironment.uploadName { return Self.newest(environment.upload.machine.engine) }
        if name == DashboardEnvironment.loadName { return Self.newest(environment.load.machine.engine) }
        return simulatedTransfers.first { $0.name == name }.map { Self.newest($0.machine.engine) } ?? 0
    }

    private static func newest<State, Event>(_ engine: StateMachine<State, Event>) -> Int {
        engine.history.last?.sequence ?? 0
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
