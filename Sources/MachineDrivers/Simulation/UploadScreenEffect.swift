import SeedModels

/// The work the Upload screen asks of the ``UploadOwner``: a key's intent (``send(_:fails:)``), which the owner
/// judges against the machine's state when it meets it, or one of the actions an intent comes down to.
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
    /// A key's intent: the first of `events` the upload's transition function applies when the intent meets
    /// the machine (a start or retry failing half way when `fails`); when none does, the owner gives the
    /// function's reason.
    case send([UploadEvent], fails: Bool)
}
