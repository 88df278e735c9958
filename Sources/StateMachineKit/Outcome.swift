/// What happened to one event sent to a ``StateMachine``.
///
/// The first five cases mirror the transition function's decision; `stopped` and `stale` are the
/// machine's own refusals, made before the transition function is asked. `postponed` and `overflowed`
/// follow a `.postpone` decision: the event was kept for a retry, or dropped because the queue was full.
public enum Outcome: Equatable, Hashable, Sendable, Codable {
    /// The machine entered a state and began a new visit (`.to`, including re-entry).
    case moved
    /// The machine kept its visit and took a new value (`.update`).
    case updated
    /// The event was accepted and nothing changed (`.stay`).
    case stayed
    /// The event meant nothing in that state and was dropped (`.ignore`).
    case ignored
    /// The event should have been impossible in that state; the machine did not move (`.invalid`).
    case invalid(String)
    /// The machine was stopped; the event was not looked at.
    case stopped
    /// The event came from a ``StateMachine/Sender`` whose visit had already ended; it was dropped.
    case stale
    /// The event was postponed (`.postpone`); it is retried after the next `.to`.
    case postponed
    /// The transition function postponed the event but `postponeLimit` events were already waiting;
    /// the event was dropped and `statemachine.postpone_overflow` reported at warning level.
    case overflowed

    /// The verdict word of the transition behind this outcome (`postpone` for `postponed` and
    /// `overflowed`), or `nil` when the transition function was never asked (`stopped`, `stale`).
    public var verdict: Verdict? {
        switch self {
        case .moved: .to
        case .updated: .update
        case .stayed: .stay
        case .ignored: .ignore
        case .invalid: .invalid
        case .postponed, .overflowed: .postpone
        case .stopped, .stale: nil
        }
    }

    /// Builds the outcome that a transition decision produces.
    @inlinable
    init<State, Event>(_ transition: Transition<State, Event>) {
        switch transition {
        case .to: self = .moved
        case .update: self = .updated
        case .stay: self = .stayed
        case .ignore: self = .ignored
        case .invalid(let reason): self = .invalid(reason)
        case .postpone: self = .postponed
        }
    }
}

extension Outcome: CustomStringConvertible {
    /// Swift-literal form: `moved`, `invalid("no coin")`, `stale`.
    public var description: String {
        switch self {
        case .moved: "moved"
        case .updated: "updated"
        case .stayed: "stayed"
        case .ignored: "ignored"
        case .invalid(let reason): "invalid(\(String(reflecting: reason)))"
        case .stopped: "stopped"
        case .stale: "stale"
        case .postponed: "postponed"
        case .overflowed: "overflowed"
        }
    }
}
