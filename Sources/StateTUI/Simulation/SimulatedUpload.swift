import StateMachineKit

/// The simulated network task behind the upload screen: it sends chunks on a ``SimulationScheduler`` and
/// reports progress, completion or failure. ``suspend()`` really stops it (the pending chunk is cancelled, no
/// progress comes while suspended) and ``resume()`` carries on from where it stopped, like
/// `URLSessionTask.suspend()`/`resume()` in seed 001.
public final class SimulatedUpload: Sendable {
    /// What the task reports.
    public enum Report: Hashable, Sendable {
        /// This fraction (0…1) is sent.
        case progress(Double)
        /// Everything was sent.
        case completed
        /// The connection failed with this message.
        case failed(String)
    }

    private struct Transmission {
        var percent = 0
        var isRunning = false
        var isFinished = false
        var pending: ScheduledWork?
        var random: SeededRandom
    }

    private let scheduler: any SimulationScheduler
    private let chunkInterval: Duration
    private let failsHalfway: Bool
    private let report: @Sendable (Report) -> Void
    private let task: Locked<Transmission>

    /// A task that has not started. Each chunk takes `chunkInterval` and sends 8–16 % (drawn from `random`);
    /// with `failsHalfway` the chunk that would pass half way fails instead.
    public init(
        scheduler: any SimulationScheduler, random: SeededRandom, chunkInterval: Duration = .milliseconds(100),
        failsHalfway: Bool, report: @escaping @Sendable (Report) -> Void
    ) {
        self.scheduler = scheduler
        self.chunkInterval = chunkInterval
        self.failsHalfway = failsHalfway
        self.report = report
        task = Locked(Transmission(random: random))
    }

    /// The fraction sent so far.
    public var progress: Double { task.withLock { Double($0.percent) / 100 } }

    /// Whether chunks are being sent (false before the start, while suspended and once finished).
    public var isRunning: Bool { task.withLock { $0.isRunning } }

    /// Starts or resumes sending; false when the task already runs or has finished.
    @discardableResult
    public func resume() -> Bool {
        let resumed = task.withLock { task -> Bool in
            guard !task.isRunning, !task.isFinished else { return false }
            task.isRunning = true
            return true
        }
        if resumed { scheduleChunk() }
        return resumed
    }

    /// Stops sending: the pending chunk is cancelled. False when the task was not running.
    @discardableResult
    public func suspend() -> Bool {
        let pending = task.withLock { task -> ScheduledWork?? in
            guard task.isRunning else { return .none }
            task.isRunning = false
            defer { task.pending = nil }
            return .some(task.pending)
        }
        guard let pending else { return false }
        pending?.cancel()
        return true
    }

    /// Stops for good; nothing more is reported.
    public func cancel() {
        let pending = task.withLock { task -> ScheduledWork? in
            task.isRunning = false
            task.isFinished = true
            defer { task.pending = nil }
            return task.pending
        }
        pending?.cancel()
    }

    private func scheduleChunk() {
        let work = scheduler.schedule(after: chunkInterval) { [weak self] in self?.sendChunk() }
        let stale = task.withLock { task -> Bool in
            guard task.isRunning else { return true }
            task.pending = work
            return false
        }
        if stale { work.cancel() }
    }

    private func sendChunk() {
        let failsHalfway = self.failsHalfway
        let outcome = task.withLock { task -> Report? in
            guard task.isRunning else { return nil }
            task.pending = nil
            // Whole percents, so the states print as `uploading(progress: 0.35)`, not 0.35000000000000003.
            let next = min(100, task.percent + Int.random(in: 8...16, using: &task.random))
            if failsHalfway && task.percent < 50 && next >= 50 {
                task.isRunning = false
                task.isFinished = true
                return .failed("connection lost at \(task.percent)%")
            }
            task.percent = next
            if next >= 100 {
                task.isRunning = false
                task.isFinished = true
            }
            return .progress(Double(next) / 100)
        }
        guard let outcome else { return }
        report(outcome)
        if case .progress(let fraction) = outcome {
            if fraction >= 1 {
                report(.completed)
            } else {
                scheduleChunk()
            }
        }
    }
}
