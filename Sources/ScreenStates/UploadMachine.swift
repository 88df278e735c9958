import StateMachineKit

/// The upload owner of seed 001 on the engine: the one place its transitions happen, so views ask
/// `state.canResume` and friends instead of re-deriving rules.
public typealias UploadMachine = ModelMachine<UploadState, UploadEvent>

extension ModelMachine where State == UploadState, Event == UploadEvent {
    /// An idle upload.
    public convenience init(
        label: String = "upload", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil
    ) {
        self.init(
            initial: .idle, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: UploadState.transition)
    }

    /// The current state.
    public var state: UploadState { engine.state }
}
