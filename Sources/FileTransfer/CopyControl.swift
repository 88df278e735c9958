import Foundation

/// The requests a copy loop obeys between chunks, and the place it parks while paused.
///
/// The loop runs on its own thread and blocks on the condition while paused: it issues no system call
/// until `resume`, `cancel` or an interrupt wakes it. Pause takes effect at the next chunk boundary.
final class CopyControl: @unchecked Sendable {
    /// What the loop does next.
    enum Command: Equatable {
        /// Copy the next chunk.
        case proceed
        /// Stop and remove the partial.
        case cancel
        /// Stop, make the partial durable and keep it (the run's task was cancelled).
        case interrupt
    }

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var pauseRequested = false
    private var cancelRequested = false
    /// A cancel arrived while a run was active: that run, not `cancel()`, removes the partial.
    private var cleanupOwedByRun = false
    private var activeRun: Int?
    private var interruptedRun: Int?
    private var runCount = 0
    private var phase = CopyPhase.idle
    private var pauseWaiters: [CheckedContinuation<Int64?, Never>] = []

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    var currentPhase: CopyPhase { locked { phase } }

    var isCancelled: Bool { locked { cancelRequested } }

    var isPauseRequested: Bool { locked { pauseRequested } }

    /// True once, for the run that must remove the partial after a cancel; later runs of a cancelled
    /// job then leave the disk alone (a new job for the same file may be using it).
    func takeCancelCleanup() -> Bool {
        locked {
            defer { cleanupOwedByRun = false }
            return cleanupOwedByRun
        }
    }

    func pause() {
        locked { pauseRequested = true }
    }

    func resume() {
        locked {
            pauseRequested = false
            condition.broadcast()
        }
    }

    /// Records the cancel; returns true when no run is active, i.e. the caller must clean up itself.
    func cancel() -> Bool {
        locked {
            cancelRequested = true
            condition.broadcast()
            if activeRun != nil {
                cleanupOwedByRun = true
            }
            return activeRun == nil && phase != .ended
        }
    }

    /// Starts a run; nil when one is already active.
    func beginRun() -> Int? {
        locked {
            guard activeRun == nil else { return nil }
            runCount += 1
            activeRun = runCount
            return runCount
        }
    }

    func interrupt(run: Int) {
        locked {
            interruptedRun = run
            condition.broadcast()
        }
    }

    /// Ends a run; `ended` is true when the job can do nothing more (completed or cancelled).
    func endRun(_ run: Int, ended: Bool) {
        locked {
            activeRun = nil
            phase = ended ? .ended : .idle
            for waiter in pauseWaiters { waiter.resume(returning: nil) }
            pauseWaiters = []
        }
    }

    /// Called by the loop between chunks: parks while paused, then says what to do.
    func next(run: Int, offset: Int64) -> Command {
        locked {
            while true {
                if cancelRequested { return .cancel }
                if interruptedRun == run { return .interrupt }
                guard pauseRequested else {
                    phase = .running(offset: offset)
                    return .proceed
                }
                if phase != .paused(offset: offset) {
                    phase = .paused(offset: offset)
                    for waiter in pauseWaiters { waiter.resume(returning: offset) }
                    pauseWaiters = []
                }
                condition.wait()
            }
        }
    }

    /// Waits until the loop has parked; returns the offset it parked at, or nil if the run ended first.
    func untilPaused() async -> Int64? {
        await withCheckedContinuation { continuation in
            locked {
                switch phase {
                case .paused(let offset):
                    continuation.resume(returning: offset)
                case .idle where activeRun == nil && runCount > 0, .ended:
                    continuation.resume(returning: nil)
                case .idle, .running:
                    pauseWaiters.append(continuation)
                }
            }
        }
    }
}
