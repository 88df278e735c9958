import ScreenStates

/// The work the Upload screen asks of the ``UploadOwner``: the user's actions, each one the upload's
/// transition function said applies when the key was pressed.
package enum UploadScreenEffect: Hashable, Sendable {
    /// Start a new upload; it fails half way when `fails`.
    case start(fails: Bool)
    /// Retry the failed upload; the new attempt fails half way when `fails`.
    case retry(fails: Bool)
    /// Suspend the task, and pause only if that worked.
    case pause
    /// Resume the paused upload.
    case resume
    /// Cancel the upload.
    case cancel
}
