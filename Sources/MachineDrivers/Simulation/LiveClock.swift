import StateMachineKit

/// Real time (a `ContinuousClock` in the dashboard): the machines run on it and each callback waits on it in
/// a task of its own; cancelling the handle cancels the task's wait.
package struct LiveClock: SimulationClock {
    /// The clock waited on, and the machines'.
    package let machineClock: AnyClock

    /// The world's time on `clock`.
    package init(clock: AnyClock = .continuous) {
        machineClock = clock
    }

    /// Starts a task that sleeps `delay` on the clock, then runs `work` unless cancelled.
    @discardableResult
    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let clock = machineClock
        let task = Task {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            work()
        }
        let handle = ScheduledWork { task.cancel() }
        return handle
    }

    /// Nothing to do: real time moves on its own, nobody waits for the world to be quiet.
    package func workSetUp() {}
}
