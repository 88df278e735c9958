import ScreenStates

/// What can happen on the Upload screen: the keys and the upload owner's reports.
public enum UploadAction: Hashable, Sendable {
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
    /// The machine's state changed.
    case uploadChanged(UploadState)
    /// The owner refused an action; the reason.
    case refused(String)
}
