import StateMachineKit

/// A seed's model running on the engine: the one shape behind ``TransferMachine``, ``UploadMachine`` and
/// ``LoadMachine``, which differ only in their model, their table and their label.
///
/// Use ``engine`` for `whileIn` work, `states()`, `records(after:)`, `history` and `stop()`: the engine's
/// feed hands every record to its readers by itself, whoever sent the event.
public final class ModelMachine<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// The engine running the model's table.
    public let engine: StateMachine<State, Event>

    /// A machine starting in `initial`, running `transition`. Inlinable, as the engine's initializer is, so that a
    /// client making a machine a file (a tree copy) sets it up in code specialised for its model instead of
    /// asking the runtime for the layout of each generic type it builds.
    @inlinable
    public init(
        initial: State, label: String, historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil,
        transition: @escaping @Sendable (State, Event) -> Transition<State, Event>
    ) {
        engine = StateMachine(
            initial: initial, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: transition)
    }

    /// A machine carrying on where `snapshot` left one, as `StateMachine(restoring:…)` does: same state, visit
    /// and record numbering, running `transition`.
    @inlinable
    public init(
        restoring snapshot: StateMachine<State, Event>.Snapshot, label: String, historyLimit: Int = 64,
        clock: AnyClock? = nil, reporter: Reporter? = nil,
        transition: @escaping @Sendable (State, Event) -> Transition<State, Event>
    ) {
        engine = StateMachine(
            restoring: snapshot, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: transition)
    }

    /// Applies `event`; true when it was accepted, false when it was rejected (ignored or invalid)
    /// and the state is unchanged.
    @inlinable @discardableResult
    public func send(_ event: Event) -> Bool {
        Self.wasAccepted(apply(event))
    }

    /// Applies `event` and returns the engine's outcome, whose verdict `replay` prints.
    @inlinable @discardableResult
    public func apply(_ event: Event) -> Outcome {
        engine.send(event)
    }

    /// Whether the engine accepted an event: moved, updated, stayed or kept for a retry (postponed, not
    /// dropped at the limit).
    @usableFromInline static func wasAccepted(_ outcome: Outcome) -> Bool {
        switch outcome.verdict {
        case .to?, .update?, .stay?: true
        case .postpone?: outcome == .postponed
        case .ignore?, .invalid?, nil: false
        }
    }
}

/// A seed's model as a machine starts it: the state it starts in, the label its machine takes unless told
/// otherwise, and its table. One initializer of ``ModelMachine`` serves every model that conforms.
public protocol MachineModel: Hashable, Sendable {
    /// The events the model's table takes.
    associatedtype Event: Sendable
    /// The state a new machine starts in.
    static var initial: Self { get }
    /// The label a machine takes unless told otherwise (its name in reports and in the History screen).
    static var machineLabel: String { get }
    /// The model's table: what `event` does in `state`.
    static func transition(_ state: Self, _ event: Event) -> Transition<Self, Event>
}

extension ModelMachine where State: MachineModel, Event == State.Event {
    /// A machine starting in the model's ``MachineModel/initial`` state, running its table.
    @inlinable
    public convenience init(
        label: String = State.machineLabel, historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil
    ) {
        self.init(
            initial: State.initial, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: { State.transition($0, $1) })
    }

    /// A machine carrying on where `snapshot` left one of the model's, running its table.
    @inlinable
    public convenience init(
        restoring snapshot: StateMachine<State, Event>.Snapshot, label: String = State.machineLabel,
        historyLimit: Int = 64, clock: AnyClock? = nil, reporter: Reporter? = nil
    ) {
        self.init(
            restoring: snapshot, label: label, historyLimit: historyLimit, clock: clock, reporter: reporter,
            transition: { State.transition($0, $1) })
    }
}
