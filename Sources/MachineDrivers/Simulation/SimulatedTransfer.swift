import SeedModels
import StateMachineKit
import Support

/// One `TransferMachine` driven by a simulated effect adapter: whenever the machine enters a running
/// state, a worker runs as its `whileIn` work, ticking on a ``SimulationClock``: it reports progress
/// through the `Sender` of its run and, after a random number of ticks, an outcome (a success, or a failure
/// when asked with ``failNextOutcome()``).
///
/// When the machine ends the run under it (pause, cancel), the worker does not vanish at once, as real work
/// rarely does: after ``SimulationTiming/lateCallbackDelay`` it sends one more progress report through the
/// cancelled run's sender. The machine drops it as stale and records it; the screen counts it from there.
package final class SimulatedTransfer: Sendable {
    /// The file the transfer produces.
    package let name: String
    /// The machine, the authority on the transfer's state.
    package let machine: TransferMachine
    private let shared: Shared
    private let runs: RunTracker

    /// A transfer named `name` of `totalBytes` bytes (shown as its size) whose worker ticks on `scheduler`,
    /// its randomness drawn from `random`; `clock` is the machine's (for state timeouts).
    package init(
        name: String, scheduler: any SimulationClock, clock: AnyClock? = nil, random: SplitMix64,
        timing: SimulationTiming, totalBytes: Int64? = nil
    ) {
        let shared = Shared(random: random, status: TransferDriverStatus(totalBytes: totalBytes))
        self.name = name
        self.shared = shared
        runs = RunTracker(scheduler: scheduler)
        machine = TransferMachine(label: name, clock: clock)
        let runs = self.runs
        machine.engine.whileIn(where: Self.works, label: "simulated transfer") { [weak machine] sender in
            guard let machine else { return }
            await Self.work(
                machine: machine, sender: sender, name: name, scheduler: scheduler, timing: timing, shared: shared,
                onSetUp: { runs.began(visit: sender.visit) })
        }
    }

    /// The states the worker runs in.
    static func works(_ model: TransferModel) -> Bool {
        model.phase.isRunning
    }

    /// The worker's status now.
    package var status: TransferDriverStatus { shared.status }

    /// Whether the worker the current visit asks for has begun (a scripted demo waits for it).
    package var isSetUp: Bool { runs.isSetUp(machine.engine, runs: Self.works) }

    /// Makes the next outcome this transfer reports a failure.
    package func failNextOutcome() {
        shared.setFailNext()
    }

    /// Stops the machine (its work is cancelled).
    package func stop() {
        machine.engine.stop()
    }

    /// One run's worth of work: progress from the current percent to 100 over the remaining share of a
    /// random number of ticks, then the outcome; a late report when the machine cancels the run.
    private static func work(
        machine: TransferMachine, sender: StateMachine<TransferModel, TransferEvent>.Sender, name: String,
        scheduler: any SimulationClock, timing: SimulationTiming, shared: Shared,
        onSetUp: @escaping @Sendable () -> Void
    ) async {
        guard case .running(let request, let percent) = machine.state else { return onSetUp() }
        let total = shared.randomTicks(in: timing.ticksPerTransfer)
        let ticks = Ticks(percent: percent, remaining: max(1, total * (100 - percent) / 100))
        await WorkHold.run(
            { finish in
                ticks.schedule(on: scheduler, every: timing.tick) { percent, last in
                    sender.send(.progress(request: request, percent: percent))
                    guard last else { return }
                    if shared.takeFailNext() {
                        sender.send(.failed(request: request, message: "simulated failure"))
                    } else {
                        sender.send(.succeeded(request: request, file: name))
                    }
                    finish()
                }
                onSetUp()
            },
            onCancel: {
                let percent = ticks.stop()
                scheduler.schedule(after: timing.lateCallbackDelay) {
                    sender.send(.progress(request: request, percent: min(100, percent + 1)))
                }
            })
    }

    /// The ticks of one run: the percent reached, the ticks left, the next tick's handle.
    private final class Ticks: Sendable {
        private struct Count {
            var percent: Int
            var tick = 0
            var remaining: Int
            var pending: ScheduledWork?
            var stopped = false
        }

        private let count: Locked<Count>

        init(percent: Int, remaining: Int) {
            count = Locked(Count(percent: percent, remaining: remaining))
        }

        /// Schedules the next tick; each tick calls `report` with the new percent and whether it was the last.
        func schedule(
            on scheduler: any SimulationClock, every interval: Duration,
            report: @escaping @Sendable (Int, Bool) -> Void
        ) {
            let work = scheduler.schedule(after: interval) { [self] in
                let step = count.withLock { count -> (percent: Int, last: Bool)? in
                    guard !count.stopped else { return nil }
                    // Spread what is left evenly over the ticks left, so the last tick reaches 100.
                    count.percent += (100 - count.percent) / (count.remaining - count.tick)
                    count.tick += 1
                    return (count.percent, count.tick >= count.remaining)
                }
                guard let step else { return }
                report(step.percent, step.last)
                if !step.last { schedule(on: scheduler, every: interval, report: report) }
            }
            let cancelled = count.withLock { count -> Bool in
                count.pending = work
                return count.stopped
            }
            if cancelled { work.cancel() }
        }

        /// Stops ticking; returns the percent reached.
        func stop() -> Int {
            let (pending, percent) = count.withLock { count in
                count.stopped = true
                return (count.pending, count.percent)
            }
            pending?.cancel()
            return percent
        }
    }

    /// What the worker and the app share.
    private final class Shared: Sendable {
        private struct Inner {
            var status: TransferDriverStatus
            var random: SplitMix64
        }

        private let inner: Locked<Inner>

        init(random: SplitMix64, status: TransferDriverStatus) {
            inner = Locked(Inner(status: status, random: random))
        }

        var status: TransferDriverStatus { inner.withLock { $0.status } }

        func setFailNext() {
            change { $0.failsNextOutcome = true }
        }

        func takeFailNext() -> Bool {
            var failing = false
            change { status in
                failing = status.failsNextOutcome
                status.failsNextOutcome = false
            }
            return failing
        }

        func randomTicks(in range: ClosedRange<Int>) -> Int {
            inner.withLock { Int.random(in: range, using: &$0.random) }
        }

        /// Applies `body` to the status.
        private func change(_ body: (inout TransferDriverStatus) -> Void) {
            inner.withLock { body(&$0.status) }
        }
    }
}

extension TransferState {
    /// Whether a request is transferring (not paused).
    var isRunning: Bool {
        switch self {
        case .running: true
        case .idle, .paused, .completed, .failed: false
        }
    }
}
