import StateMachineKit

/// One row of a `@StateMachine` table: in state case `state`, on event case `event`, if `admits` holds,
/// decide with `decide`.
///
/// The macro reads rows as syntax and generates the `switch` from them; the values exist so the table
/// type-checks and can also be interpreted at run time (`TransitionTable.interpret(_:_:)`).
public struct TransitionRow<
    State: Sendable, Event: Sendable, StateCase: Hashable & Sendable, EventCase: Hashable & Sendable
>: Sendable {
    /// The state case this row applies to (any payload).
    public let state: StateCase
    /// The event case this row applies to (any payload).
    public let event: EventCase
    /// The guard on the payloads; a row whose guard fails passes the event to the next row of its pair.
    public let admits: (@Sendable (State, Event) -> Bool)?
    /// The decision when the row applies.
    public let decide: @Sendable (State, Event) -> Transition<State, Event>

    /// Moves to `target`, a new visit.
    public static func on(
        _ state: StateCase, _ event: EventCase, when admits: (@Sendable (State, Event) -> Bool)? = nil, to target: State
    ) -> Self {
        Self(state: state, event: event, admits: admits, decide: { _, _ in .to(target) })
    }

    /// Moves to `target` and arms a state timeout: `send` is delivered if the visit lasts `after`.
    public static func on(
        _ state: StateCase, _ event: EventCase, when admits: (@Sendable (State, Event) -> Bool)? = nil,
        to target: State, after: Duration, send: Event
    ) -> Self {
        Self(
            state: state, event: event, admits: admits,
            decide: { _, _ in
                .to(target, timeout: StateTimeout(after: after, send: send))
            })
    }

    /// Stays, ignores, rejects the event as invalid, or postpones it until the next `.to`.
    public static func on(
        _ state: StateCase, _ event: EventCase, when admits: (@Sendable (State, Event) -> Bool)? = nil,
        _ verdict: RowVerdict
    ) -> Self {
        Self(state: state, event: event, admits: admits, decide: { _, _ in verdict.transition() })
    }

    /// Decides from the payloads: the closure returns any `Transition` (for example `.update` with a new
    /// payload, or `.to` a state built from the current one).
    public static func on(
        _ state: StateCase, _ event: EventCase, when admits: (@Sendable (State, Event) -> Bool)? = nil,
        _ decide: @escaping @Sendable (State, Event) -> Transition<State, Event>
    ) -> Self {
        Self(state: state, event: event, admits: admits, decide: decide)
    }
}

/// The payload-free decisions a row can name directly.
public enum RowVerdict: Sendable, Hashable {
    /// Accept the event and change nothing.
    case stay
    /// The event means nothing here.
    case ignore
    /// The event should be impossible here, for the given reason.
    case invalid(String)
    /// Not now: keep the event and retry it after the next `.to`.
    case postpone

    /// The engine's decision for this verdict.
    public func transition<State, Event>() -> Transition<State, Event> {
        switch self {
        case .stay: .stay
        case .ignore: .ignore
        case .invalid(let reason): .invalid(reason)
        case .postpone: .postpone
        }
    }
}
