import ScreenStates

/// The work the Upload screen asks for; ``UploadEffectRunner`` performs it on the ``UploadOwner``.
public enum UploadEffect: Hashable, Sendable {
    /// Ask the owner for a user action (start, pause, resume, cancel, retry).
    case perform(UploadEvent)
    /// Tell the owner whether the next upload fails.
    case setFailNext(Bool)
}
