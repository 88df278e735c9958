/// The decision a transition function makes for one event in one state.
///
/// The transition function `(State, Event) -> Transition<State, Event>` is the specification of a
/// machine: pure, total, and checked for exhaustiveness by the compiler.
public enum Transition<State, Event> {
    /// Ends the current visit and starts a new one in `State` (also for `.to(current)`: re-entry).
    /// An optional timeout arms a timer for the new visit only.
    case to(State, timeout: StateTimeout<Event>? = nil)
    /// Keeps the visit and replaces the state's value (gen_statem's `keep_state` with new data).
    case update(State)
    /// Accepts the event and changes nothing.
    case stay
    /// The event means nothing here; it is dropped.
    case ignore
    /// The event should be impossible here; the machine stays and reports the reason at error level.
    case invalid(String)
    /// Not now: the machine keeps the event and retries it after the next `.to` (gen_statem's
    /// `postpone`). Postponed events are retried in arrival order at the start of the new visit; an
    /// `.update` is not a state change and retries nothing. The state does not change.
    case postpone
}

extension Transition: Sendable where State: Sendable, Event: Sendable {}
extension Transition: Equatable where State: Equatable, Event: Equatable {}

extension Transition {
    /// The verdict word of this decision: `to`, `update`, `stay`, `ignore`, `invalid` or `postpone`.
    public var verdict: Verdict {
        switch self {
        case .to: .to
        case .update: .update
        case .stay: .stay
        case .ignore: .ignore
        case .invalid: .invalid
        case .postpone: .postpone
        }
    }

    /// The state the machine holds after this decision, given the state it held before.
    public func target(from current: State) -> State {
        switch self {
        case .to(let next, _), .update(let next): next
        case .stay, .ignore, .invalid, .postpone: current
        }
    }

    /// The same decision about a state of another type: the target of a `.to` or an `.update` passed through
    /// `transform`, everything else (the timeout, the reason) kept. For a transition function over a richer
    /// or a folded state, e.g. one that also remembers what an observer saw.
    public func mapState<Other>(_ transform: (State) -> Other) -> Transition<Other, Event> {
        switch self {
        case .to(let next, let timeout): .to(transform(next), timeout: timeout)
        case .update(let next): .update(transform(next))
        case .stay: .stay
        case .ignore: .ignore
        case .invalid(let reason): .invalid(reason)
        case .postpone: .postpone
        }
    }

    /// Whether the machine accepted the event (anything but `.ignore` and `.invalid`; a postponed
    /// event is kept for later, so it counts as accepted).
    public var isAccepted: Bool {
        switch self {
        case .to, .update, .stay, .postpone: true
        case .ignore, .invalid: false
        }
    }
}

/// The words every tool uses for the result of a transition: the original five, then `postpone`.
public enum Verdict: String, Sendable, Hashable, CaseIterable, Codable {
    /// A new visit began.
    case to
    /// The same visit holds a new value.
    case update
    /// Nothing changed; the event was accepted.
    case stay
    /// The event meant nothing in that state.
    case ignore
    /// The event should have been impossible in that state.
    case invalid
    /// The event was kept, to be retried after the next state change.
    case postpone

    /// The word as printed by `replay`, `graph`, the dashboard and the history.
    public var word: String { rawValue }
}

/// "If still in this visit after `after`, deliver `send`" — gen_statem's state timeout.
public struct StateTimeout<Event> {
    /// How long the visit may last before the event is delivered.
    public var after: Duration
    /// The event delivered when the timer fires within its visit.
    public var event: Event

    /// Arms `send` to be delivered `after` the visit begins, unless the visit ends first.
    public init(after: Duration, send: Event) {
        self.after = after
        self.event = send
    }
}

extension StateTimeout: Sendable where Event: Sendable {}
extension StateTimeout: Equatable where Event: Equatable {}
