import StateMachineKit

/// Decides whether a failure shorter than a known one exists, breadth first from the initial state, when
/// the whole reachable space was too large to explore.
///
/// Only sequences shorter than `bound` are searched, so a space too large to explore whole is usually
/// small at that depth. Sequences are followed through the queue-less transitions, as
/// ``StateGraph/explore(from:events:maximumStates:transition:)`` follows them: a failure reached with
/// postponed events is reached by at most as many events without them (each state change is one event in
/// one state), so the depth at which the first violating state appears is the length of the shortest
/// failing sequence.
struct ShorterFailureSearch<State: Hashable, Event> {
    /// What the search found out.
    enum Answer {
        /// The shortest failing sequence, shorter than the bound.
        case shorter([Event])
        /// No failing sequence shorter than the bound exists: the known one is the shortest.
        case noneShorter
        /// More than the budget of distinct states lie within the bound: the question stays open.
        case undecided
    }

    let events: [Event]
    let transition: (State, Event) -> Transition<State, Event>
    let invariant: (State) -> Bool

    /// Searches every sequence of fewer than `bound` events from `initial`, visiting at most `budget`
    /// distinct states; among equally short failures the first found (events in the order given) wins, so
    /// the answer is deterministic.
    func search(from initial: State, shorterThan bound: Int, budget: Int) -> Answer {
        // Each visited state with the visit it was reached from and the event that reached it.
        var states: [State] = [initial]
        var parents: [(state: Int, event: Int)] = [(-1, -1)]
        var seen: Set<State> = [initial]
        var level = 0..<1
        for _ in 1..<max(bound, 1) {
            for position in level {
                for (eventIndex, event) in events.enumerated() {
                    let next: State
                    switch transition(states[position], event) {
                    case .to(let target, _), .update(let target): next = target
                    case .stay, .ignore, .invalid, .postpone: continue
                    }
                    guard !seen.contains(next) else { continue }
                    guard states.count < budget else { return .undecided }
                    seen.insert(next)
                    states.append(next)
                    parents.append((position, eventIndex))
                    if !invariant(next) { return .shorter(path(to: states.count - 1, parents: parents)) }
                }
            }
            level = level.upperBound..<states.count
            if level.isEmpty { return .noneShorter }
        }
        return .noneShorter
    }

    /// The events from the initial state to the visit at `index`.
    private func path(to index: Int, parents: [(state: Int, event: Int)]) -> [Event] {
        var path: [Event] = []
        var position = index
        while parents[position].state >= 0 {
            path.append(events[parents[position].event])
            position = parents[position].state
        }
        return path.reversed()
    }
}
