import ScreenStates
import StateMachineKit

/// Seed 001's upload owner ("From example to a real upload"): it owns the ``UploadMachine`` and the
/// ``SimulatedUpload`` task, keeps the two in step, and is the only place upload transitions are asked for.
/// Pausing suspends the task first and updates the state only when that worked; resuming resumes the task.
/// Every change is passed to the observers with the machine's own state and history.
public final class UploadOwner: Sendable {
    /// What observers receive after every change: the machine's state and its records.
    public typealias Observer = @Sendable (UploadState, [StateMachine<UploadState, UploadEvent>.Record]) -> Void

    private struct Parts {
        var task: SimulatedUpload?
        var failNext = false
        var random: SeededRandom
        var observers: [Observer] = []
    }

    /// The machine: the authority on the upload's state.
    public let machine: UploadMachine
    private let scheduler: any SimulationScheduler
    private let chunkInterval: Duration
    private let parts: Locked<Parts>

    /// An idle upload whose simulated task runs on `scheduler`, drawing chunk sizes from `random`.
    public init(
        machine: UploadMachine = UploadMachine(), scheduler: any SimulationScheduler, random: SeededRandom,
        chunkInterval: Duration = .milliseconds(100)
    ) {
        self.machine = machine
        self.scheduler = scheduler
        self.chunkInterval = chunkInterval
        parts = Locked(Parts(random: random))
    }

    /// The current state.
    public var state: UploadState { machine.state }

    /// Whether the next upload (started or retried) fails half way.
    public var failsNext: Bool { parts.withLock { $0.failNext } }

    /// Calls `observer` after every change (and once now with the current state).
    public func observe(_ observer: @escaping Observer) {
        parts.withLock { $0.observers.append(observer) }
        observer(machine.state, machine.engine.history)
    }

    /// Makes the next upload fail half way (or not).
    public func setFailNext(_ fails: Bool) {
        parts.withLock { $0.failNext = fails }
    }

    /// Asks for a user action (`start`, `pause`, `resume`, `cancel`, `retry`): the task is started, suspended,
    /// resumed or cancelled to match, and the machine's outcome is returned (`.invalid` with the reason when
    /// the action is impossible now; nothing changes then).
    @discardableResult
    public func perform(_ event: UploadEvent) -> Outcome {
        let outcome: Outcome
        switch event {
        case .start, .retry:
            outcome = machine.apply(event)
            if outcome == .moved { startTask() }
        case .pause:
            // Suspend the task first: the state says paused only once nothing more is being sent.
            let task = parts.withLock { $0.task }
            if machine.state.canPause, let task, task.suspend() {
                outcome = machine.apply(.pause)
                if outcome != .moved { task.resume() }
            } else {
                // Not uploading: the machine refuses and says why.
                outcome = machine.apply(.pause)
            }
        case .resume:
            outcome = machine.apply(.resume)
            if outcome == .moved { parts.withLock { $0.task }?.resume() }
        case .cancel:
            outcome = machine.apply(.cancel)
            if outcome == .moved { stopTask() }
        case .progress, .complete, .fail:
            // Task reports come from the simulated task only; passed through for completeness.
            outcome = machine.apply(event)
        }
        notify()
        return outcome
    }

    private func startTask() {
        stopTask()
        let (random, fails) = parts.withLock { parts -> (SeededRandom, Bool) in
            let seed = parts.random.next()
            let fails = parts.failNext
            parts.failNext = false
            return (SeededRandom(seed: seed), fails)
        }
        let task = SimulatedUpload(
            scheduler: scheduler, random: random, chunkInterval: chunkInterval, failsHalfway: fails
        ) { [weak self] report in
            self?.taskReported(report)
        }
        parts.withLock { $0.task = task }
        task.resume()
    }

    private func stopTask() {
        let task = parts.withLock { parts -> SimulatedUpload? in
            defer { parts.task = nil }
            return parts.task
        }
        task?.cancel()
    }

    private func taskReported(_ report: SimulatedUpload.Report) {
        switch report {
        case .progress(let fraction): machine.apply(.progress(fraction))
        case .completed: machine.apply(.complete)
        case .failed(let message): machine.apply(.fail(message: message))
        }
        notify()
    }

    private func notify() {
        let observers = parts.withLock { $0.observers }
        let state = machine.state
        let history = machine.engine.history
        for observer in observers { observer(state, history) }
    }
}
