/// Why an upload action was impossible: the state it was tried in, the action, and the reason
/// the transition gave (seed 001: "return an error for invalid transitions when callers need to
/// know why an action failed").
public struct UploadStateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The state the upload was in; it is unchanged.
    public var state: UploadState
    /// The action that was refused.
    public var event: UploadEvent
    /// The reason, e.g. `pause while completed: only an upload in progress can pause`.
    public var reason: String

    /// `cannot pause in completed: pause while completed: only an upload in progress can pause`.
    public var description: String { "cannot \(event) in \(state): \(reason)" }
}
