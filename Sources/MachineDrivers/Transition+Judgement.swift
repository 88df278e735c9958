import StateMachineKit

/// What a decision of a transition function means for a key: whether its event does anything now, and the
/// reason given when it is refused. The screens' rulebook (`EventRule`) and the owners that judge a key's
/// intent when it meets the machine read the decision through these two, so they cannot disagree.
extension Transition {
    /// Whether the decision changes the state: a new visit (`to`) or a new value (`update`). An event the
    /// machine would ignore, refuse, accept without change (`stay`) or postpone does nothing now.
    package var changesState: Bool {
        switch self {
        case .to, .update: true
        case .stay, .ignore, .invalid, .postpone: false
        }
    }

    /// The reason given for an invalid event; nil for every other decision.
    package var refusal: String? {
        if case .invalid(let reason) = self { return reason }
        return nil
    }
}
