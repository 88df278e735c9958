import StateMachineKit

/// Seed 002's loading screen on the engine, running ``LoadState/transition(_:_:)``.
public final class LoadMachine: Sendable {
    /// The engine running the load table.
    public let engine: StateMachine<LoadState, LoadAction>
    /// The engine's records as a stream (``records()``).
    private let feed: RecordFeed<LoadState, LoadAction>

    /// An idle screen.
    public init(label: String = "load", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil) {
        let feed = RecordFeed<LoadState, LoadAction>()
        self.feed = feed
        engine = StateMachine(
            initial: LoadState.idle, label: label, historyLimit: historyLimit, clock: clock,
            reporter: reporter, transition: LoadState.transition)
        feed.attach(engine)
    }

    /// The current state.
    public var state: LoadState { engine.state }

    /// The machine's records now and after each change, and after each stale or ignored action delivered
    /// through ``apply(_:)`` or ``deliver(_:through:)``.
    public func records() -> AsyncStream<[StateMachine<LoadState, LoadAction>.Record]> {
        feed.records()
    }

    /// Applies `action`; true when it was accepted.
    @discardableResult
    public func send(_ action: LoadAction) -> Bool {
        wasAccepted(apply(action))
    }

    /// Applies `action` and returns the engine's outcome.
    @discardableResult
    public func apply(_ action: LoadAction) -> Outcome {
        feed.noted(engine.send(action))
    }

    /// Delivers `action` through `sender` (the sender of a run of `whileIn` work) and returns the machine's
    /// outcome; a record that leaves the state as it was (stale, ignored, …) wakes ``records()`` readers.
    @discardableResult
    public func deliver(_ action: LoadAction, through sender: StateMachine<LoadState, LoadAction>.Sender) -> Outcome {
        feed.noted(sender.send(action))
    }
}
