import StateMachineKit

/// The one rulebook for keys: whether a key's event does anything now is asked of the model's transition
/// function, never of a table kept beside it in the UI.
enum EventRule {
    /// Whether `event` changes `state`: the transition moves (`to`) or takes a new value (`update`). An
    /// event the machine would ignore, refuse as invalid, accept without change (`stay`, a refresh while
    /// loading) or postpone does nothing now, so its key sends nothing and the help bar does not offer it.
    static func applies<State, Event>(
        _ event: Event, in state: State, _ transition: (State, Event) -> Transition<State, Event>
    ) -> Bool {
        switch transition(state, event) {
        case .to, .update: true
        case .stay, .ignore, .invalid, .postpone: false
        }
    }

    /// The first of `candidates` that applies in `state` (pause, else resume, for one key), nil when none does.
    static func first<State, Event>(
        of candidates: [Event], in state: State, _ transition: (State, Event) -> Transition<State, Event>
    ) -> Event? {
        candidates.first { applies($0, in: state, transition) }
    }

    /// Why `event` does nothing in `state`: the transition function's reason for an invalid event, nil when
    /// it applies or there is no reason to give.
    static func refusal<State, Event>(
        _ event: Event, in state: State, _ transition: (State, Event) -> Transition<State, Event>
    ) -> String? {
        if case .invalid(let reason) = transition(state, event) { return reason }
        return nil
    }
}
