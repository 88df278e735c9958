import SeedModels
import StateMachineKit
import Support

/// Seed 001's upload owner ("From example to a real upload"): it owns the ``UploadMachine`` and the
/// ``SimulatedUpload`` task. The task is the machine's `whileIn` work while it uploads: each run holds the
/// `Sender` the machine gave it, so a report from a run the machine ended is dropped there as stale.
/// Pausing suspends the task first and sends `pause` only when that worked. The owner never tells anyone
/// about changes: readers subscribe to the machine's `states()` and records.
package final class UploadOwner: Sendable {
    private struct Parts {
        /// The current upload's task and the number the machine knows it by.
        var task: (upload: Int, task: SimulatedUpload)?
        /// The number the last upload was given; each start or retry takes the next.
        var lastUpload = 0
        var random: SplitMix64
    }

    /// The machine: the authority on the upload's state.
    package let machine: UploadMachine
    private let scheduler: any SimulationClock
    private let chunkInterval: Duration
    private let parts: Locked<Parts>
    private let runs: RunTracker

    /// An idle upload whose simulated task runs on `scheduler`, drawing chunk sizes from `random`.
    package init(
        machine: UploadMachine = UploadMachine(), scheduler: any SimulationClock, random: SplitMix64,
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
            guard let (upload, task) = self.parts.withLock({ $0.task }) else { return runs.began(visit: sender.visit) }
            await task.run(onSetUp: { runs.began(visit: sender.visit) }) { report in
                sender.send(report.event(upload: upload))
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
    package var task: SimulatedUpload? { parts.withLock { $0.task?.task } }

    /// Whether the task the current visit asks for has begun (a scripted demo waits for it).
    package var isSetUp: Bool { runs.isSetUp(machine.engine, runs: Self.transfers) }

    /// Performs a user action the screen asked for; returns why nothing happened when the action could not
    /// be carried out (a pause whose task would not suspend), nil otherwise. The machine decides the rest:
    /// an action its transition function refuses changes nothing.
    @discardableResult
    package func perform(_ effect: UploadScreenEffect) -> String? {
        switch effect {
        case .start(let fails):
            begin(UploadEvent.start, failsHalfway: fails)
        case .retry(let fails):
            begin(UploadEvent.retry, failsHalfway: fails)
        case .pause:
            guard let task, task.suspend() else {
                return "the upload task could not be suspended, so the upload goes on"
            }
            if machine.apply(.pause) == .moved { task.pauseTaken() } else { task.resumeAfterRefusedPause() }
        case .resume:
            machine.apply(.resume)
        case .cancel:
            if machine.apply(.cancel) == .moved { parts.withLock { $0.task = nil } }
        case .send(let events, let fails):
            // The intent meets the machine's state now, not the state the screen showed when the key was
            // pressed (`s p` typed fast: the screen may still show idle).
            // A start or retry is judged as the upload this owner would number next.
            let upload = machine.state
            let next = parts.withLock { $0.lastUpload + 1 }
            let events = events.map { $0.beginning(max(next, upload.nextUpload)) }
            guard let event = events.first(where: { UploadState.transition(upload, $0).changesState }) else {
                return events.lazy.compactMap { UploadState.transition(upload, $0).refusal }.first
            }
            return Self.effect(for: event, fails: fails).flatMap(perform)
        }
        return nil
    }

    /// The action that sends `event`; a start or retry fails half way when `fails`. Nil for the task's own
    /// reports, which no user action sends.
    static func effect(for event: UploadEvent, fails: Bool) -> UploadScreenEffect? {
        switch event {
        case .start: .start(fails: fails)
        case .retry: .retry(fails: fails)
        case .pause: .pause
        case .resume: .resume
        case .cancel: .cancel
        case .progress, .complete, .fail: nil
        }
    }

    /// A fresh task under the next upload number, then the event that starts it: the run the machine begins on
    /// entering `uploading` picks the task up. A retry after a network failure continues from what was sent.
    private func begin(_ event: (Int) -> UploadEvent, failsHalfway: Bool) {
        let scheduler = self.scheduler
        let chunkInterval = self.chunkInterval
        var percent = 0
        if case .failed(_, .network, _, let sent) = machine.state { percent = Int((sent * 100).rounded()) }
        let (upload, previous) = parts.withLock { parts -> (Int, (upload: Int, task: SimulatedUpload)?) in
            let previous = parts.task
            parts.lastUpload += 1
            parts.task = (
                parts.lastUpload,
                SimulatedUpload(
                    scheduler: scheduler, random: SplitMix64(seed: parts.random.next()), chunkInterval: chunkInterval,
                    failsHalfway: failsHalfway, percent: percent)
            )
            return (parts.lastUpload, previous)
        }
        if machine.apply(event(upload)) != .moved { parts.withLock { $0.task = previous } }
    }
}
