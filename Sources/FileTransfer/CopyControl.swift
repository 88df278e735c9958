import StateMachineKit
import Support

/// Drives a ``CopyJob``'s ``CopyLifecycle`` machine: starts and ends runs, carries interrupts and
/// cancels to it, and answers the copy loop's question between chunks.
///
/// The machine is the only authority: whether a run may begin, whether the loop goes on and who removes
/// the partial after a cancel are all its decisions; this type only reads them off the outcomes.
final class CopyControl: Sendable {
    typealias Machine = StateMachine<CopyLifecycle, CopyLifecycleEvent>

    /// What the loop does next.
    enum Command: Equatable {
        /// Copy the next chunk.
        case proceed
        /// Stop; the partial is removed when the run ends.
        case cancel
        /// Stop, make the partial durable and keep it (the run's task was cancelled).
        case interrupt
    }

    private let machine: Machine
    /// The file the job copies, as its request names it: escaped only when a failure message shows it.
    private let fileName: String
    /// The sender of the run under way, so that an interrupt from outside the run's task reaches it
    /// (``interruptCurrentRun()``); stale once that run ended.
    private let current = Locked<Machine.Sender?>(nil)

    /// A controller in `ready` for the job copying the file `fileName`.
    ///
    /// Its machine keeps no history and has one label for every job: nothing reads a job's lifecycle but the job
    /// itself, and the file's name, escaped, is only for the messages of a broken invariant. A history and a label
    /// of its own cost every file of a tree copy a ring and a string it never read.
    init(fileName: String) {
        self.fileName = fileName
        machine = Machine(
            initial: .ready, label: Self.machineLabel, historyLimit: 0, transition: CopyLifecycle.transition)
    }

    /// The label of every job's lifecycle machine.
    static let machineLabel = "copy job"

    /// The job, as a broken invariant's message names it: `copy NAME`, the name escaped.
    private var jobName: String { "copy \(DisplayText.escaped(fileName))" }

    /// Stops the machine, which nothing else holds (its senders hold it weakly), as its own `deinit` would next,
    /// but in code specialised for the lifecycle: the engine's `deinit` runs its generic code unspecialised,
    /// every type it touches looked up at run time, unless the machine was stopped.
    deinit {
        machine.stop()
    }

    /// Where the job is now.
    var state: CopyLifecycle { machine.state }

    /// Starts a run and returns its sender (the run's identity), or nil when the job was cancelled and
    /// the run must return `.cancelled` at once. A second run while one is active is a caller's bug.
    func beginRun() -> Machine.Sender? {
        let (outcome, run) = machine.sendAndBind(.begin)
        switch outcome {
        case .moved:
            current.withLock { $0 = run }
            return run
        case .ignored:
            return nil
        case .invalid(let reason):
            preconditionFailure("CopyJob.run of \(jobName): \(reason)")
        case .updated, .stayed, .stopped, .stale, .postponed, .overflowed:
            preconditionFailure("Internal inconsistency: \(jobName) began a run with outcome \(outcome)")
        }
    }

    /// The run's task was cancelled: its loop stops at the next chunk boundary (stale once the run ended).
    func interrupt(_ run: Machine.Sender) {
        run.send(.interrupt)
    }

    /// Interrupts the run under way, if any, as its task's cancellation would: for a caller whose own
    /// cancellation must reach the loop at once, even before the run's task could be cancelled.
    func interruptCurrentRun() {
        current.withLock { $0 }?.send(.interrupt)
    }

    /// Called by the loop between chunks (a lock and a read, no system call): what to do next.
    func next() -> Command {
        switch machine.state {
        case .running: .proceed
        case .interrupting: .interrupt
        case .cancelling: .cancel
        case .ready, .discarding, .completed, .cancelled:
            preconditionFailure("Internal inconsistency: \(jobName)'s loop runs in \(machine.state)")
        }
    }

    /// Cancels the job; when no run is active the machine names the caller to remove the partial, which
    /// `discard` does before this returns. During a run, the run removes it when it stops.
    func cancel(discard: () -> Void) {
        let (outcome, discarding) = machine.sendAndBind(.cancel)
        if outcome == .moved {
            discard()
            discarding.send(.discarded)
        }
    }

    /// Ends `run` as `end`; when a cancel arrived during the run, the machine names the run to remove
    /// the partial, which `discard` does before this returns.
    func endRun(_ run: Machine.Sender, _ end: CopyRunEnd, discard: () -> Void) {
        current.withLock { $0 = nil }
        if run.send(.finished(end)) == .updated {
            discard()
            run.send(.discarded)
        }
    }
}
