import ScreenStates
import StateMachineKit
import Support

/// Seed 001's upload owner ("From example to a real upload"): it owns the ``UploadMachine`` and the
/// ``SimulatedUpload`` task. The task is the machine's `whileIn` work while it uploads: each run holds the
/// `Sender` the machine gave it, so a report from a run the machine ended is dropped there as stale.
/// Pausing suspends the task first and sends `pause` only when that worked. The owner never tells anyone
/// about changes: readers subscribe to the machine's `states()` and records.
package final class UploadOwner: Sendable {
    private struct Parts {
        var task: SimulatedUpload?
        var random: SplitMix64
    }

    /// The machine: the authority on the upload's state.
    package let machine: UploadMachine
    private let scheduler: any SimulationScheduler
    private let chunkInterval: Duration
    private let parts: Locked<Parts>
    private let runs: RunTracker

    /// An idle upload whose simulated task runs on `scheduler`, drawing chunk sizes from `random`.
    package init(
        machine: UploadMachine = UploadMachine(), scheduler: any SimulationScheduler, random: SplitMix64,
        chunkInterval: Duration = .milliseconds(100)
    ) {
        self.machine = machine
        self.scheduler = scheduler
        runs = RunTracker(scheduler: scheduler)
        self.chunkInterval = chunkInterval
        parts = Locked(Parts(random: random))
        machine.engine.whileIn(where: Self.transfers, label: "upload task") { [weak self] sender in
            guard let self else { return }
            let runs = self.runs
            guard let task = self.task else { return runs.began(visit: sender.visit) }
            await task.run(onSetUp: { runs.began(visit: sender.visit) }) { report in
                self.machine.deliver(report.event, through: sender)
            }
        }
    }

    /// The states the task sends in: uploading.
    static func transfers(_ state: UploadState) -> Bool {
        state.canPause
    }

    /// The current state.
    package var state: UploadState { machine.state }

    /// The task of the current upload, if one was started.
    package var task: SimulatedUpload? { parts.withLock { $0.task } }

    /// Whether the task the current visit asks for has begun (a scripted demo waits for it).
    package var isSetUp: Bool { runs.isSetUp(machine.engine, runs: Self.transfers) }

    /// Performs a user action the screen asked for; returns why nothing happened when the action could not
    /// be carried out (a pause whose task would not suspend), nil otherwise. The machine decides the rest:
    /// an action its transition function refuses changes nothing.
    @discardableResult
    package func perform(_ effect: UploadScreenEffect) -> String? {
        switch effect {
        case .start(let fails):
            begin(.start, failsHalfway: fails)
        case .retry(let fails):
            begin(.retry, failsHalfway: fails)
        case .pause:
            guard let task, task.suspend() else {
                return "the upload task could not be suspended, so the upload goes on"
            }
            if machine.apply(.pause) != .moved { task.resumeAfterRefusedPause() }
        case .resume:
            machine.apply(.resume)
        case .cancel:
            if machine.apply(.cancel) == .moved { parts.withLock { $0.task = nil } }
        }
        return nil
    }

    /// A fresh task, then the event that starts it: the run the machine begins on entering `uploading`
    /// picks the task up.
    private func begin(_ event: UploadEvent, failsHalfway: Bool) {
        let scheduler = self.scheduler
        let chunkInterval = self.chunkInterval
        let previous = parts.withLock { parts -> SimulatedUpload? in
            let previous = parts.task
            parts.task = SimulatedUpload(
                scheduler: scheduler, random: SplitMix64(seed: parts.random.next()), chunkInterval: chunkInterval,
                failsHalfway: failsHalfway)
            return previous
        }
        if machine.apply(event) != .moved { parts.withLock { $0.task = previous } }
    }
}
