import ScreenStates
import StateMachineKit

/// One `TransferMachine` driven by a simulated effect adapter: whenever the machine enters a running
/// state, a worker runs as its `whileIn` work on the machine's clock, reports progress through the visit's
/// `Sender` and, after a random number of ticks, an outcome (a success, or a failure when asked with
/// ``failNextOutcome()``).
///
/// When the visit ends under it (pause, cancel), the worker does not vanish at once, as real work rarely
/// does: it lives on for ``SimulationTiming/lateCallbackDelay`` and then sends one more progress report
/// through its old sender. The machine drops it as stale; the machine's `statemachine.stale_event` reports
/// are counted into ``status``, which the screen shows.
public final class SimulatedTransfer: Sendable {
    /// The file the transfer produces.
    public let name: String
    /// The machine, the authority on the transfer's state.
    public let machine: TransferMachine
    private let shared: Shared

    /// A transfer named `name` on `clock`, its randomness drawn from `random`.
    public init(name: String, clock: AnyClock, random: SimulationRandom, timing: SimulationTiming) {
        let shared = Shared(random: random)
        self.name = name
        self.shared = shared
        machine = TransferMachine(
            label: name, clock: clock,
            reporter: Reporter { report in
                if report.name == Report.Name.staleEvent { shared.recordStaleEvent() }
            })
        let engine = machine.engine
        engine.whileIn(where: { $0.phase.isRunning }, label: "simulated transfer") { [weak engine] sender in
            guard let engine else { return }
            await Self.work(
                sender: sender, model: engine.state, name: name, clock: clock, timing: timing, shared: shared)
        }
    }

    /// The worker's status now.
    public var status: SimulationStatus { shared.status }

    /// The worker's status after every change, newest only.
    public var statusUpdates: AsyncStream<SimulationStatus> { shared.updates }

    /// Makes the next outcome this transfer reports a failure.
    public func failNextOutcome() {
        shared.setFailNext()
    }

    /// Stops the machine (its work is cancelled) and ends the status updates.
    public func stop() {
        machine.engine.stop()
        shared.finish()
    }

    /// One visit's worth of work: progress from the current percent to 100 over the remaining share of a
    /// random number of ticks, then the outcome.
    private static func work(
        sender: StateMachine<TransferModel, TransferEvent>.Sender, model: TransferModel, name: String,
        clock: AnyClock, timing: SimulationTiming, shared: Shared
    ) async {
        guard case .running(let request, var percent) = model.phase else { return }
        let total = shared.randomTicks(in: timing.ticksPerTransfer)
        let remaining = max(1, total * (100 - percent) / 100)
        for tick in 0..<remaining {
            do {
                try await clock.sleep(for: timing.tick)
            } catch {
                lateCallback(sender: sender, request: request, percent: percent, clock: clock, timing: timing)
                return
            }
            // Spread what is left evenly over the ticks left, so the last tick reaches 100.
            percent += (100 - percent) / (remaining - tick)
            sender.send(.progress(request: request, percent: percent))
        }
        if shared.takeFailNext() {
            sender.send(.failed(request: request, message: "simulated failure"))
        } else {
            sender.send(.succeeded(request: request, file: name))
        }
    }

    /// The report a cancelled worker still sends: from a task of its own (the worker's is cancelled), after
    /// a delay on the machine clock, through the sender of the visit that has ended.
    private static func lateCallback(
        sender: StateMachine<TransferModel, TransferEvent>.Sender, request: Int, percent: Int, clock: AnyClock,
        timing: SimulationTiming
    ) {
        Task.detached {
            try? await clock.sleep(for: timing.lateCallbackDelay)
            sender.send(.progress(request: request, percent: min(100, percent + 1)))
        }
    }

    /// What the machine's reporter, the worker and the app share.
    private final class Shared: Sendable {
        private struct Inner {
            var status = SimulationStatus()
            var random: SimulationRandom
        }

        private let inner: Locked<Inner>
        let updates: AsyncStream<SimulationStatus>
        private let continuation: AsyncStream<SimulationStatus>.Continuation

        init(random: SimulationRandom) {
            inner = Locked(Inner(random: random))
            (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
            continuation.yield(SimulationStatus())
        }

        var status: SimulationStatus { inner.withLock { $0.status } }

        func recordStaleEvent() {
            change { $0.staleEvents += 1 }
        }

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

        func finish() {
            continuation.finish()
        }

        /// Applies `body` and publishes the result, under the lock so updates are yielded in order.
        private func change(_ body: (inout SimulationStatus) -> Void) {
            inner.withLock { inner in
                body(&inner.status)
                continuation.yield(inner.status)
            }
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
