import StateMachineKit

/// The upload owner of seed 001 on the engine: the one place its transitions happen, so views ask
/// `state.canResume` and friends instead of re-deriving rules.
public final class UploadMachine: Sendable {
    /// The engine running ``UploadState/transition(_:_:)``.
    public let engine: StateMachine<UploadState, UploadEvent>

    /// An idle upload.
    public init(label: String = "upload", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil) {
        engine = StateMachine(
            initial: UploadState.idle, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: UploadState.transition)
    }

    /// The current state.
    public var state: UploadState { engine.state }

    /// Applies `event`; true when it was accepted.
    @discardableResult
    public func send(_ event: UploadEvent) -> Bool {
        wasAccepted(apply(event))
    }

    /// Applies `event` and returns the engine's outcome.
    @discardableResult
    public func apply(_ event: UploadEvent) -> Outcome {
        engine.send(event)
    }
}
