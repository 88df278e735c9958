import StateMachineKit

/// Seed 000's `TransferMachine`, running on the engine: `state` and `send` behave exactly as the
/// seed's class, while the engine adds visits, history, observation and reports.
///
/// The engine holds a ``TransferModel`` (the phase plus the request counter and what a failure
/// retains); ``state`` is its phase. Effects are derived from recorded transitions with
/// ``TransferModel/effects(from:to:)``, or planned ahead with ``TransferModel/plan(_:_:)``.
public final class TransferMachine: Sendable {
    /// The engine running ``TransferModel/transition(_:_:)``: use it for `whileIn` work,
    /// `states()`, `history` and `stop()`.
    public let engine: StateMachine<TransferModel, TransferEvent>
    /// The engine's records as a stream (``records()``).
    private let feed: RecordFeed<TransferModel, TransferEvent>

    /// A transfer starting idle, with no request issued yet.
    public init(label: String = "transfer", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil) {
        let feed = RecordFeed<TransferModel, TransferEvent>()
        self.feed = feed
        engine = StateMachine(
            initial: TransferModel.initial, label: label, historyLimit: historyLimit, clock: clock,
            reporter: reporter, transition: TransferModel.transition)
        feed.attach(engine)
    }

    /// The machine's records now and after each change, and after each stale, ignored or invalid event
    /// delivered through ``apply(_:)`` or ``deliver(_:through:)``.
    public func records() -> AsyncStream<[StateMachine<TransferModel, TransferEvent>.Record]> {
        feed.records()
    }

    /// The current phase.
    public var state: TransferState { engine.state.phase }

    /// The whole current model, request counter included.
    public var model: TransferModel { engine.state }

    /// Applies `event`; true when it was accepted, false when it was rejected (ignored or invalid)
    /// and the state is unchanged.
    @discardableResult
    public func send(_ event: TransferEvent) -> Bool {
        wasAccepted(apply(event))
    }

    /// Applies `event` and returns the engine's outcome, whose verdict `replay` prints.
    @discardableResult
    public func apply(_ event: TransferEvent) -> Outcome {
        feed.noted(engine.send(event))
    }

    /// Delivers `event` through `sender` (the sender of a run of `whileIn` work) and returns the machine's
    /// outcome; a record that leaves the state as it was (stale, ignored, …) wakes ``records()`` readers.
    @discardableResult
    public func deliver(_ event: TransferEvent, through sender: StateMachine<TransferModel, TransferEvent>.Sender)
        -> Outcome
    {
        feed.noted(sender.send(event))
    }
}

/// Whether the engine accepted an event: moved, updated, stayed or kept for a retry (postponed, not
/// dropped at the limit).
func wasAccepted(_ outcome: Outcome) -> Bool {
    switch outcome.verdict {
    case .to?, .update?, .stay?: true
    case .postpone?: outcome == .postponed
    case .ignore?, .invalid?, nil: false
    }
}
