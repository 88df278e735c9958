/// A user action the ``UploadOwner`` carries out on its machine and task (``UploadOwner/perform(_:)``); a key's
/// intent comes down to one of these when it meets the machine (``UploadOwner/performFirst(of:fails:)``).
package enum UploadCommand: Hashable, Sendable {
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
