import StateMachineKit

/// A scheduler that waits on a real clock (a `ContinuousClock` in the dashboard), each callback in a task of
/// its own; cancelling the handle cancels the task's wait.
package struct ClockScheduler: SimulationScheduler {
    /// The clock waited on.
    package let clock: AnyClock

    /// A scheduler on `clock`.
    package init(clock: AnyClock = .continuous) {
        self.clock = clock
    }

    /// Starts a task that sleeps `delay` on the clock, then runs `work` unless cancelled.
    @discardableResult
    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let clock = self.clock
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
