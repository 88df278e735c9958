/// How a run of a copy ended, when it did not fail.
public enum CopyOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The file was copied, verified and renamed onto its final name in this run.
    case completed(CommittedFile)
    /// The file is already there: the journal recorded it as completed and it still verifies, or the
    /// destination holds a file with the source's size and modification time (or, compared, content);
    /// nothing was copied.
    case alreadyComplete(CommittedFile)
    /// The run's task was cancelled: I/O stopped, the partial was synced and kept, and the next `run`
    /// continues at `offset`.
    case interrupted(offset: Int64)
    /// `cancel()` stopped the copy and removed the partial.
    case cancelled

    /// Swift-literal form, e.g. `interrupted(offset: 1048576)`.
    public var description: String {
        switch self {
        case .completed(let file): "completed(\"\(file.path)\")"
        case .alreadyComplete(let file): "alreadyComplete(\"\(file.path)\")"
        case .interrupted(let offset): "interrupted(offset: \(offset))"
        case .cancelled: "cancelled"
        }
    }
}
