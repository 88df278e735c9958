import StateMachineKit
import Support

/// Where the simulated world (the uploader, the load server) waits: "call me back after this long".
/// Injected, so the live dashboard waits on a real clock while demos and tests advance time by hand and
/// get the same callbacks in the same order every run.
package protocol SimulationScheduler: Sendable {
    /// Runs `work` once `delay` has passed, unless the returned handle is cancelled first.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork

    /// Tells whoever drives time that a run of work has finished setting itself up (its callbacks are
    /// scheduled and it says so), so a driver waiting for the world to be quiet looks again.
    func workSetUp()
}

/// A pending callback of a ``SimulationScheduler``; cancelling it means the work never runs.
package final class ScheduledWork: Sendable {
    private let cancelled = Locked(false)
    private let onCancel: @Sendable () -> Void

    /// A handle that calls `onCancel` (once) when cancelled.
    package init(onCancel: @escaping @Sendable () -> Void = {}) {
        self.onCancel = onCancel
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Makes sure the work does not run (a no-op once it ran).
    package func cancel() {
        let first = cancelled.withLock { flag -> Bool in
            defer { flag = true }
            return !flag
        }
        if first { onCancel() }
    }
}
