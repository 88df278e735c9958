/// Where a copy job's loop is, as seen from outside.
public enum CopyPhase: Hashable, Sendable, CustomStringConvertible {
    /// No run is active (not started yet, or the last run was interrupted or failed).
    case idle
    /// The loop is copying; `offset` is the partial's size at the last step.
    case running(offset: Int64)
    /// The loop is parked between chunks and performs no I/O until resumed, cancelled or interrupted.
    case paused(offset: Int64)
    /// The copy completed or was cancelled; the job does nothing more.
    case ended

    /// Swift-literal form, e.g. `paused(offset: 4096)`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .running(let offset): "running(offset: \(offset))"
        case .paused(let offset): "paused(offset: \(offset))"
        case .ended: "ended"
        }
    }
}
