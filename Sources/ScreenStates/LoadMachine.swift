import StateMachineKit

/// Seed 002's loading screen on the engine, running ``LoadState/transition(_:_:)``.
public typealias LoadMachine = ModelMachine<LoadState, LoadAction>

extension ModelMachine where State == LoadState, Event == LoadAction {
    /// An idle screen.
    public convenience init(
        label: String = "load", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil
    ) {
        self.init(
            initial: .idle, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: LoadState.transition)
    }

    /// The current state.
    public var state: LoadState { engine.state }
}
