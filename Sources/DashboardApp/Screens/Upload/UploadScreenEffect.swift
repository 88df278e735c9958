import SeedModels

/// The work the Upload screen asks of its runtime: a key's intent, which the ``UploadOwner`` judges against the
/// machine's state when it meets it (``UploadOwner/performFirst(of:fails:)``).
package enum UploadScreenEffect: Hashable, Sendable {
    /// A key's intent: the first of `events` the upload's transition function applies when the intent meets
    /// the machine (a start or retry failing half way when `fails`); when none does, the owner gives the
    /// function's reason.
    case send([UploadEvent], fails: Bool)
}
