import SeedModels
import StateMachineKit
import Support

/// The simulated network task behind the upload screen: it sends chunks on a ``SimulationClock`` and
/// reports progress, completion or failure to whichever run of the upload machine's `whileIn` work holds it.
///
/// ``suspend()`` really stops it (the pending chunk is cancelled, nothing comes while suspended) and the next
/// run carries on from where it stopped, like `URLSessionTask.suspend()`/`resume()` in seed 001. A run the
/// machine cancels while chunks are flowing (the upload was cancelled) leaves the chunk already on the wire
/// to land: it reports through the cancelled run's sender, and the machine drops it as stale.
package final class SimulatedUpload: Sendable {
    /// What the task reports.
    package enum Report: Hashable, Sendable {
        /// This fraction (0…1) is sent.
        case progress(Double)
        /// Everything was sent.
        case completed
        /// The connection failed with this message.
        case failed(String)

        /// The event the report stands for, naming `upload`, the upload it belongs to. A lost connection is
        /// a network failure, which a retry continues from where it stopped.
        package func event(upload: Int) -> UploadEvent {
            switch self {
            case .progress(let fraction): .progress(upload: upload, fraction: fraction)
            case .completed: .complete(upload: upload)
            case .failed(let message): .fail(upload: upload, category: .network, message: message)
            }
        }
    }

    /// Where the task is.
    private enum Phase {
        /// Not started, or suspended: nothing is scheduled.
        case stopped
        /// Sending: a chunk is scheduled and reports go to the attached run.
        case sending
        /// Suspended before a run attached (a pause typed right after the start): a run that attaches now
        /// sends nothing until the pause is refused (``resumeAfterRefusedPause()``) or taken (``pauseTaken()``).
        case held
        /// Its run was cancelled mid-flight: the chunk on the wire still lands, then nothing more.
        case landing
        /// Done (completed, failed, or landed after a cancel).
        case finished
    }

    private struct Transmission {
        var percent = 0
        var phase = Phase.stopped
        var pending: ScheduledWork?
        var random: SplitMix64
        var report: (@Sendable (Report) -> Void)?
        var finishRun: (@Sendable () -> Void)?
    }

    private let scheduler: any SimulationClock
    private let chunkInterval: Duration
    private let failsHalfway: Bool
    private let task: Locked<Transmission>

    /// A task that has not started, with `percent` already sent (a retry continuing after a lost connection).
    /// Each chunk takes `chunkInterval` and sends 8–16 % (drawn from `random`); with `failsHalfway` the chunk
    /// that would pass half way fails instead.
    package init(
        scheduler: any SimulationClock, random: SplitMix64, chunkInterval: Duration = .milliseconds(100),
        failsHalfway: Bool, percent: Int = 0
    ) {
        self.scheduler = scheduler
        self.chunkInterval = chunkInterval
        self.failsHalfway = failsHalfway
        task = Locked(Transmission(percent: percent, random: random))
    }

    /// The fraction sent so far.
    package var progress: Double { task.withLock { Double($0.percent) / 100 } }

    /// Whether chunks are being sent (false before a run attaches, while suspended and once finished).
    package var isRunning: Bool { task.withLock { $0.phase == .sending } }

    /// One run of the machine's work: sends chunks, reporting each through `report`, until the upload ends
    /// or the machine cancels the run. `onSetUp` runs once the first chunk is scheduled (or the run found
    /// nothing to send).
    package func run(
        onSetUp: @escaping @Sendable () -> Void = {}, reporting report: @escaping @Sendable (Report) -> Void
    ) async {
        await WorkHold.run(
            { finish in
                // true: send; false: nothing to send; nil: held by a pause the machine has not judged yet.
                let sends = task.withLock { task -> Bool? in
                    switch task.phase {
                    case .stopped, .held:
                        task.report = report
                        task.finishRun = finish
                        guard task.phase == .stopped else { return nil }
                        task.phase = .sending
                        return true
                    case .sending, .landing, .finished:
                        return false
                    }
                }
                switch sends {
                case true?: scheduleChunk(reporting: report)
                case false?: finish()
                case nil: break
                }
                onSetUp()
            },
            onCancel: { [self] in
                task.withLock { task in
                    task.report = nil
                    task.finishRun = nil
                    // Cancelled while sending: the scheduled chunk is already on the wire and lands late.
                    if task.phase == .sending { task.phase = .landing }
                }
            })
    }

    /// Stops sending: the pending chunk is cancelled. Before any run attached (`s p` typed fast) the task
    /// is held instead, so a run attaching before the machine takes the pause sends nothing. False when the
    /// task was not sending and not about to, so a pause must not be recorded (seed 001: update the state
    /// only if suspending worked).
    @discardableResult
    package func suspend() -> Bool {
        let pending = task.withLock { task -> ScheduledWork?? in
            switch task.phase {
            case .sending:
                task.phase = .stopped
                defer { task.pending = nil }
                return .some(task.pending)
            case .stopped where task.report == nil:
                task.phase = .held
                return .some(nil)
            case .stopped, .held, .landing, .finished:
                return .none
            }
        }
        guard let pending else { return false }
        pending?.cancel()
        return true
    }

    /// Carries on after a ``suspend()`` whose pause the machine did not take: the attached run goes on.
    func resumeAfterRefusedPause() {
        let report = task.withLock { task -> (@Sendable (Report) -> Void)? in
            guard task.phase == .stopped || task.phase == .held else { return nil }
            guard let report = task.report else {
                task.phase = .stopped
                return nil
            }
            task.phase = .sending
            return report
        }
        if let report { scheduleChunk(reporting: report) }
    }

    /// The machine took the pause a ``suspend()`` asked for: a task held before its run attached is simply
    /// stopped, and the run of the resumed visit sends.
    func pauseTaken() {
        task.withLock { task in
            if task.phase == .held { task.phase = .stopped }
        }
    }

    private func scheduleChunk(reporting report: @escaping @Sendable (Report) -> Void) {
        // Held strongly: a chunk on the wire lands even when the owner has let go of the task (a cancel).
        let work = scheduler.schedule(after: chunkInterval) { [self] in sendChunk(reporting: report) }
        let stale = task.withLock { task -> Bool in
            guard task.phase == .sending else { return true }
            task.pending = work
            return false
        }
        if stale { work.cancel() }
    }

    /// Sends one chunk and reports it through the run that scheduled it (a cancelled run's sender when the
    /// chunk lands after a cancel).
    private func sendChunk(reporting report: @escaping @Sendable (Report) -> Void) {
        let failsHalfway = self.failsHalfway
        let (outcomes, continues, finish) = task.withLock {
            task -> (outcomes: [Report], continues: Bool, finish: (@Sendable () -> Void)?) in
            guard task.phase == .sending || task.phase == .landing else { return ([], false, nil) }
            let landing = task.phase == .landing
            task.pending = nil
            // Whole percents, so the states print as `uploading(upload: 1, progress: 0.35)`, not 0.35000000000000003.
            let next = min(100, task.percent + Int.random(in: 8...16, using: &task.random))
            if failsHalfway && task.percent < 50 && next >= 50 {
                task.phase = .finished
                return ([.failed("connection lost at \(task.percent)%")], false, task.finishRun)
            }
            task.percent = next
            if landing || next >= 100 {
                task.phase = .finished
                return (
                    next >= 100 && !landing ? [.progress(1), .completed] : [.progress(Double(next) / 100)],
                    false, task.finishRun
                )
            }
            return ([.progress(Double(next) / 100)], true, nil)
        }
        for outcome in outcomes { report(outcome) }
        if continues { scheduleChunk(reporting: report) }
        finish?()
    }
}
