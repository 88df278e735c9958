import StateMachineKit

/// The upload owner of seed 001 on the engine: the one place its transitions happen, so views ask
/// `state.canResume` and friends instead of re-deriving rules.
public final class UploadMachine: Sendable {
    /// The engine running ``UploadState/transition(_:_:)``.
    public let engine: StateMachine<UploadState, UploadEvent>
    /// The engine's records as a stream (``records()``).
    private let feed: RecordFeed<UploadState, UploadEvent>

    /// An idle upload.
    public init(label: String = "upload", historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil) {
        let feed = RecordFeed<UploadState, UploadEvent>()
        self.feed = feed
        engine = StateMachine(
            initial: UploadState.idle, label: label, historyLimit: historyLimit, clock: clock,
            reporter: reporter, transition: UploadState.transition)
        feed.attach(engine)
    }

    /// The current state.
    public var state: UploadState { engine.state }

    /// The machine's records now and after each change, and after each stale, ignored or invalid event
    /// delivered through ``apply(_:)`` or ``deliver(_:through:)``.
    public func records() -> AsyncStream<[StateMachine<UploadState, UploadEvent>.Record]> {
        feed.records()
    }

    /// Applies `event`; true when it was accepted.
    @discardableResult
    public func send(_ event: UploadEvent) -> Bool {
        wasAccepted(apply(event))
    }

    /// Applies `event` and returns the engine's outcome.
    @discardableResult
    public func apply(_ event: UploadEvent) -> Outcome {
        feed.noted(engine.send(event))
    }

    /// Delivers `event` through `sender` (the sender of a run of `whileIn` work) and returns the machine's
    /// outcome; a record that leaves the state as it was (stale, ignored, …) wakes ``records()`` readers.
    @discardableResult
    public func deliver(_ event: UploadEvent, through sender: StateMachine<UploadState, UploadEvent>.Sender) -> Outcome
    {
        feed.noted(sender.send(event))
    }
}
