import StateMachineKit

/// Where a ``CopyJob`` is in its life: the state of the machine that controls its copy loop.
///
/// A run's identity is the engine's visit: ``CopyLifecycleEvent/begin`` enters `running` in a new visit
/// and binds the run's sender to it; the run's interrupt and its end come back through that sender, so a
/// late interrupt from an earlier run is stale. While a run is active the state only takes new values
/// in the same visit (`.update`: `interrupting`, `cancelling`, `discarding`), and the run's end leaves it.
///
/// Who removes the partial after a cancel is decided here, by the outcome the caller gets: a cancel
/// that *moves* the machine (no run active) leaves the removal to the canceller; a run's end that only
/// *updates* it (a cancel arrived during the run) leaves it to the run. Either then sends
/// ``CopyLifecycleEvent/discarded``. Nothing else can leave `discarding`, so exactly one party removes.
enum CopyLifecycle: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No run is active; the job may run (it never ran, or its last run was interrupted or failed).
    case ready
    /// A run copies; the loop proceeds chunk after chunk.
    case running
    /// The run's task was cancelled: the loop stops at the next chunk boundary, keeping the partial.
    case interrupting
    /// A cancel arrived during a run: the loop stops at the next chunk boundary and the run removes
    /// the partial.
    case cancelling
    /// The partial is being removed by the one party the machine named (see the type's comment).
    case discarding
    /// A run committed the file (or found it already complete); a later run verifies it again.
    case completed
    /// Cancelled for good: the partial is gone and every later run returns `.cancelled` at once.
    case cancelled

    /// The case name, e.g. `cancelling`.
    var description: String {
        switch self {
        case .ready: "ready"
        case .running: "running"
        case .interrupting: "interrupting"
        case .cancelling: "cancelling"
        case .discarding: "discarding"
        case .completed: "completed"
        case .cancelled: "cancelled"
        }
    }

    /// The copy lifecycle's transition function: pure and total.
    static func transition(_ state: CopyLifecycle, _ event: CopyLifecycleEvent) -> Transition<
        CopyLifecycle, CopyLifecycleEvent
    > {
        switch (state, event) {
        case (.ready, .begin), (.completed, .begin):
            return .to(.running)
        case (.running, .begin), (.interrupting, .begin), (.cancelling, .begin):
            return .invalid("a run began while another run of the job was active")
        case (.discarding, .begin), (.cancelled, .begin):
            // The run returns `.cancelled` without touching the disk.
            return .ignore

        case (.running, .interrupt):
            return .update(.interrupting)
        case (.interrupting, .interrupt), (.cancelling, .interrupt), (.discarding, .interrupt):
            // Already stopping; a cancel outranks an interrupt.
            return .stay
        case (.ready, .interrupt), (.completed, .interrupt), (.cancelled, .interrupt):
            // A late interrupt of a run that ended (its sender makes it stale before it gets here).
            return .ignore

        case (.ready, .cancel):
            return .to(.discarding)
        case (.running, .cancel), (.interrupting, .cancel):
            return .update(.cancelling)
        case (.cancelling, .cancel), (.discarding, .cancel), (.cancelled, .cancel):
            return .stay
        case (.completed, .cancel):
            // The file is committed: there is no partial to remove and nothing to stop.
            return .ignore

        case (.running, .finished(.completed)), (.interrupting, .finished(.completed)),
            (.cancelling, .finished(.completed)):
            // A cancel that arrived after the last chunk is too late: the file is committed.
            return .to(.completed)
        case (.running, .finished(.stopped)), (.interrupting, .finished(.stopped)):
            return .to(.ready)
        case (.cancelling, .finished(.stopped)), (.cancelling, .finished(.cancelled)):
            return .update(.discarding)
        case (.running, .finished(.cancelled)), (.interrupting, .finished(.cancelled)):
            return .invalid("a run stopped for a cancel nobody asked for")
        case (.ready, .finished), (.discarding, .finished), (.completed, .finished), (.cancelled, .finished):
            return .invalid("a run finished while none was active")

        case (.discarding, .discarded):
            return .to(.cancelled)
        case (.ready, .discarded), (.running, .discarded), (.interrupting, .discarded), (.cancelling, .discarded),
            (.completed, .discarded), (.cancelled, .discarded):
            return .invalid("a partial was discarded that nobody was asked to discard")
        }
    }
}

/// What happens to a ``CopyJob``'s lifecycle.
enum CopyLifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    /// `run` starts a run.
    case begin
    /// The task awaiting the run was cancelled (through the run's sender).
    case interrupt
    /// `cancel()`: stop for good and remove the partial.
    case cancel
    /// The run ended (through the run's sender).
    case finished(CopyRunEnd)
    /// The party the machine named removed the partial and journaled the cancellation.
    case discarded

    /// Every event, for exploring the machine.
    static let all: [CopyLifecycleEvent] = [
        .begin, .interrupt, .cancel, .finished(.completed), .finished(.stopped), .finished(.cancelled), .discarded,
    ]

    /// Swift-literal form, e.g. `finished(stopped)`.
    var description: String {
        switch self {
        case .begin: "begin"
        case .interrupt: "interrupt"
        case .cancel: "cancel"
        case .finished(let end): "finished(\(end))"
        case .discarded: "discarded"
        }
    }
}

/// How a run of a ``CopyJob`` ended.
enum CopyRunEnd: Hashable, Sendable {
    /// The file is committed (copied now or found complete).
    case completed
    /// The loop stopped because the job was cancelled; the partial is still to be removed.
    case cancelled
    /// The run was interrupted or failed; the partial is kept for the next run.
    case stopped
}
