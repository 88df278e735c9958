import StateMachineKit
import Support

/// The one clock of a simulated world: the machines' clock and, on the same timeline, where the simulated work
/// (the transfers' workers, the uploader, the load server) and the status timers wait ("call me back after
/// this long"). Injected, so the live dashboard runs on real time (``LiveClock``) while demos and tests move
/// time by hand (``ManualClock``) and get the same callbacks in the same order every run.
package protocol SimulationClock: Sendable {
    /// The machines' clock: the same time the callbacks are scheduled on.
    var machineClock: AnyClock { get }

    /// Runs `work` once `delay` has passed, unless the returned handle is cancelled first.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork

    /// Tells whoever drives time that a run of work has finished setting itself up (its callbacks are
    /// scheduled and it says so), so a driver waiting for the world to be quiet looks again.
    func workSetUp()
}

/// A pending callback of a ``SimulationClock``; cancelling it means the work never runs.
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
