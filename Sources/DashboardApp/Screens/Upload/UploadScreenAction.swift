import SeedModels
import StateMachineKit

/// What can happen on the Upload screen: the keys, the machine's snapshots and the owner's refusals.
package enum UploadScreenAction: Hashable, Sendable {
    /// `s`: start an upload.
    case start
    /// space or `p`: pause an upload in progress or resume a paused one.
    case pauseOrResume
    /// `c`: cancel.
    case cancel
    /// `r`: retry after a failure.
    case retry
    /// `f`: make the next upload fail (pressed again: not).
    case toggleFailNext
    /// The machine's `states()` delivered this state.
    case uploadChanged(UploadState)
    /// A batch of the machine's change feed: its new records (stale and invalid ones included) and how many it missed.
    case recordsChanged(StateMachine<UploadState, UploadEvent>.RecordBatch)
    /// The owner could not carry out an action; the reason.
    case refused(String)
    /// This notice has been shown long enough (``StatusExpiry``).
    case noticeExpired(StatusLine<String>.Message)
}
