import StateMachineKit

/// The upload owner of seed 001 on the engine: the one place its transitions happen, so views ask
/// `state.canResume` and friends instead of re-deriving rules.
public typealias UploadMachine = ModelMachine<UploadState, UploadEvent>

extension ModelMachine where State == UploadState, Event == UploadEvent {
    /// The current state.
    public var state: UploadState { engine.state }
}
