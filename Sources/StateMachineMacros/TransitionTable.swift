import StateMachineKit

/// A `@StateMachine` table: the initial state, the states that may end the machine, what happens to pairs
/// the table does not list, and the rows.
public struct TransitionTable<
    State: Sendable, Event: Sendable, StateCase: Hashable & Sendable, EventCase: Hashable & Sendable
>: Sendable {
    /// The state a machine built from this table starts in.
    public let initial: State
    /// The state cases allowed to have no way out.
    public let final: [StateCase]
    /// The decision for a (state, event) pair with no row.
    public let unlisted: UnlistedPairs
    /// The rows, in the order they are tried.
    public let rows: [TransitionRow<State, Event, StateCase, EventCase>]

    /// A table starting in `initial`, whose unlisted pairs are `unlisted` (invalid by default). Under
    /// `@StateMachine`, a table that leaves `unlisted` out must list every (state, event) pair.
    public init(
        initial: State, final: [StateCase] = [], unlisted: UnlistedPairs = .invalid,
        rows: [TransitionRow<State, Event, StateCase, EventCase>]
    ) {
        self.initial = initial
        self.final = final
        self.unlisted = unlisted
        self.rows = rows
    }

    /// Decides by walking the rows at run time, given how to name a value's case. The macro's generated
    /// `switch` must agree with this for every pair; tests hold the two against each other.
    public func interpret(
        _ state: State, _ event: Event, stateCase: (State) -> StateCase, eventCase: (Event) -> EventCase
    ) -> Transition<State, Event> {
        let pair = (stateCase(state), eventCase(event))
        let candidates = rows.filter { $0.state == pair.0 && $0.event == pair.1 }
        for row in candidates where row.admits?(state, event) ?? true {
            return row.decide(state, event)
        }
        if candidates.isEmpty {
            return unlisted.transition(state, event)
        }
        return .invalid("no guard admitted \(event) in \(state)")
    }
}

/// What a pair the table does not list means.
public enum UnlistedPairs: Sendable, Hashable {
    /// Unlisted pairs are dropped.
    case ignore
    /// Unlisted pairs are reported as invalid (`statemachine.invalid`).
    case invalid

    /// The decision for an unlisted pair; the reason names the event and the state in canonical text.
    public func transition<State, Event>(_ state: State, _ event: Event) -> Transition<State, Event> {
        switch self {
        case .ignore: .ignore
        case .invalid: .invalid("no row for \(event) in \(state)")
        }
    }
}
