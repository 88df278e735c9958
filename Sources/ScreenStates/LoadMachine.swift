import StateMachineKit

/// Seed 002's loading screen on the engine, running ``LoadState/transition(_:_:)``.
public final class LoadMachine: Sendable {
    /// The engine running the load table.
    public let engine: StateMachine<LoadState, LoadAction>

    /// An idle screen.
    public init(label: String = "load", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil) {
        engine = StateMachine(
            initial: LoadState.idle, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: LoadState.transition)
    }

    /// The current state.
    public var state: LoadState { engine.state }

    /// Applies `action`; true when it was accepted.
    @discardableResult
    public func send(_ action: LoadAction) -> Bool {
        wasAccepted(apply(action))
    }

    /// Applies `action` and returns the engine's outcome.
    @discardableResult
    public func apply(_ action: LoadAction) -> Outcome {
        engine.send(action)
    }
}
