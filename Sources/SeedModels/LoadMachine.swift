import StateMachineKit

/// Seed 002's loading screen on the engine, running ``LoadState/transition(_:_:)``.
public typealias LoadMachine = ModelMachine<LoadState, LoadAction>

extension ModelMachine where State == LoadState, Event == LoadAction {
    /// The current state.
    public var state: LoadState { engine.state }
}
