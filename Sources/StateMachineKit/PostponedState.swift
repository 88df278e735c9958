/// A machine's state together with the events it has postponed: the node of a graph explored with
/// a queue (``StateGraph/explore(from:events:postponeLimit:maximumStates:transition:)``).
///
/// Two configurations with the same state but different queues behave differently (the queue is
/// retried on the next `.to`), so exploration keeps them apart.
public struct PostponedState<State: Hashable, Event: Hashable>: Hashable {
    /// The machine's state.
    public var state: State
    /// The postponed events, oldest first.
    public var postponed: [Event]

    /// A configuration of `state` with `postponed` waiting.
    public init(_ state: State, postponed: [Event] = []) {
        self.state = state
        self.postponed = postponed
    }

    /// What the engine does with `event` in this configuration, as one decision on configurations.
    ///
    /// `.postpone` stays `.postpone` (the explorer appends the event, or drops it at `postponeLimit`).
    /// A `.to` retries the queue in arrival order the way ``StateMachine`` does, and the decision
    /// leads to the configuration after the retries. `.update` keeps the queue: it is no state change.
    func step(
        _ event: Event, transition: (State, Event) -> Transition<State, Event>
    ) -> Transition<PostponedState, Event> {
        switch transition(state, event) {
        case .to(let next, let timeout):
            return .to(Self.retrying(postponed, in: next, transition: transition), timeout: timeout)
        case .update(let next):
            return .update(PostponedState(next, postponed: postponed))
        case .stay: return .stay
        case .ignore: return .ignore
        case .invalid(let reason): return .invalid(reason)
        case .postpone: return .postpone
        }
    }

    /// The configuration after `queue` is retried in `state`, which a `.to` has just entered.
    static func retrying(
        _ queue: [Event], in state: State, transition: (State, Event) -> Transition<State, Event>
    ) -> PostponedState {
        var state = state
        var pending = queue
        var postponedAgain: [Event] = []
        var next = 0
        while next < pending.count {
            let event = pending[next]
            next += 1
            switch transition(state, event) {
            case .to(let target, _):
                state = target
                if !postponedAgain.isEmpty {
                    pending = postponedAgain + pending[next...]
                    postponedAgain = []
                    next = 0
                }
            case .update(let target):
                state = target
            case .postpone:
                postponedAgain.append(event)
            case .stay, .ignore, .invalid:
                break
            }
        }
        return PostponedState(state, postponed: postponedAgain)
    }
}

extension PostponedState: Sendable where State: Sendable, Event: Sendable {}

extension PostponedState: CustomStringConvertible {
    /// The state alone when nothing waits (so a machine that never postpones renders as without a
    /// queue), else the state and the queue: `closed [postponed: open, open]`.
    public var description: String {
        guard !postponed.isEmpty else { return String(describing: state) }
        return "\(state) [postponed: \(postponed.map { String(describing: $0) }.joined(separator: ", "))]"
    }
}

extension StateGraph {
    /// Explores every configuration — state and postponed queue — reachable from `initial` with an
    /// empty queue, by sending each of `events` in every configuration.
    ///
    /// A `.postpone` is an edge of kind ``Edge/Kind/postpone`` to the same state with the event
    /// appended to the queue; while `postponeLimit` events wait, it names no node (the engine drops
    /// the event). A `.to` leads to the configuration after the queue is retried in arrival order, as
    /// ``StateMachine`` does; an `.update` keeps the queue. Nodes print as ``PostponedState`` does: a
    /// configuration with an empty queue prints as its state, so for a machine that never postpones the
    /// graph renders exactly as ``explore(from:events:maximumStates:transition:)-4rz00``'s does. The queue
    /// makes the space larger, so `postponeLimit` also bounds the search.
    public static func explore<Base: Hashable>(
        from initial: Base, events: [Event], postponeLimit: Int, maximumStates: Int = 10_000,
        transition: (Base, Event) -> Transition<Base, Event>
    ) -> StateGraph where State == PostponedState<Base, Event> {
        precondition(postponeLimit >= 0, "StateGraph.explore: postponeLimit must be 0 or more, got \(postponeLimit)")
        return explore(
            from: PostponedState(initial), events: events, maximumStates: maximumStates,
            transition: { configuration, event in configuration.step(event, transition: transition) },
            postponed: { configuration, event in
                guard configuration.postponed.count < postponeLimit else { return nil }
                return PostponedState(configuration.state, postponed: configuration.postponed + [event])
            })
    }
}
