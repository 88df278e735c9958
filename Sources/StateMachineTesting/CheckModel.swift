import StateMachineKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends random sequences of `events` through `transition` from `initial` and checks the model's rules
/// after every event; returns the shortest failing sequence it can find, or nil when every sequence passes.
///
/// The rules: `invariant` holds in the initial state and after every event, and a rejected event
/// (`.ignore`, `.invalid`) leaves the state exactly as it was.
///
/// Postponed events are modelled as the engine runs them: a `.postpone` queues the event (up to
/// `postponeLimit`, past which it is dropped), and every `.to` retries the queue in arrival order, each
/// retried event checked by the same rules. The shortest-path shrink stays exact with a queue: a path
/// in the queue-less graph never postpones, so it replays the same; and a failure reached with a queue
/// is reached by at most as many events without one (each state change is one event in one state). Sequences come from a `SplitMix64`
/// seeded with `seed`, or with `STATE_MACHINE_SEED` from the environment when that is set (so a failure
/// printed in CI replays locally), or with a random seed; the seed used is in the counterexample.
///
/// A failure is shrunk. When the states reachable from `initial` number at most `maximumStates`, the
/// result is the globally shortest failing sequence, found breadth-first through the `StateGraph`.
/// Otherwise chunks and then single events are removed until no removal still fails (1-minimal), and a
/// breadth-first search of the sequences shorter than that one, visiting at most `maximumStates` states,
/// decides whether a shorter failure exists (it then replaces the removal's answer). The counterexample's
/// ``Counterexample/minimality`` says whether it is the shortest, or only 1-minimal because that search
/// could not finish within its budget.
public func checkModel<State: Hashable, Event>(
    from initial: State, events: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool, sequences: Int = 500, maximumLength: Int = 40, seed: UInt64? = nil,
    maximumStates: Int = 100_000, postponeLimit: Int = 64
) -> Counterexample<State, Event>? {
    checkModel(
        from: initial, events: events, transition: transition, invariant: invariant, sequences: sequences,
        maximumLength: maximumLength, seed: seed, maximumStates: maximumStates, postponeLimit: postponeLimit,
        environment: ProcessInfo.processInfo.environment)
}

/// ``checkModel(from:events:transition:invariant:sequences:maximumLength:seed:maximumStates:postponeLimit:)`` with the
/// environment passed in, so the `STATE_MACHINE_SEED` override can be tested without touching the process.
public func checkModel<State: Hashable, Event>(
    from initial: State, events: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool, sequences: Int = 500, maximumLength: Int = 40, seed: UInt64? = nil,
    maximumStates: Int = 100_000, postponeLimit: Int = 64, environment: [String: String]
) -> Counterexample<State, Event>? {
    let runSeed = ModelSeed.resolve(explicit: seed, environment: environment)
    return withoutActuallyEscaping(transition) { transition in
        withoutActuallyEscaping(invariant) { invariant in
            let search = ModelSearch<State, Event>(events: events) { sequence in
                runPure(
                    from: initial, sequence, transition: transition, invariant: invariant,
                    postponeLimit: postponeLimit)
            }
            guard let found = search.findFailure(sequences: sequences, maximumLength: maximumLength, seed: runSeed)
            else {
                return nil
            }
            let graph = StateGraph.explore(
                from: initial, events: events, maximumStates: maximumStates, transition: transition)
            /// Replays a breadth-first path to a violation, which must fail.
            func traceOfShortest(_ path: [Event]) -> ModelTrace<State> {
                let trace = search.run(path)
                precondition(trace.failure != nil, "Internal inconsistency: the shortest path to a violation passes")
                return trace
            }
            let shrunk: (events: [Event], trace: ModelTrace<State>, steps: Int)
            let minimality: Counterexample<State, Event>.Minimality
            if !graph.isTruncated, let path = graph.shortestPath(to: { !invariant($0) }) {
                // The whole reachable space is known, so the breadth-first path is the shortest failure
                // there is; it replaces the random one in a single step.
                shrunk = (path, traceOfShortest(path), path.count < found.events.count ? 1 : 0)
                minimality = .shortest
            } else {
                // Too many states to explore whole: shrink by removal, then ask whether anything shorter
                // fails, searching only the sequences shorter than the removal's answer.
                let removed = search.shrinkByRemoval(found.events, trace: found.trace)
                let shorter = ShorterFailureSearch(events: events, transition: transition, invariant: invariant)
                switch shorter.search(from: initial, shorterThan: removed.events.count, budget: maximumStates) {
                case .shorter(let path):
                    shrunk = (path, traceOfShortest(path), removed.steps + 1)
                    minimality = .shortest
                case .noneShorter:
                    shrunk = removed
                    minimality = .shortest
                case .undecided:
                    shrunk = removed
                    minimality = .oneMinimal
                }
            }
            return Counterexample(
                initial: initial, events: shrunk.events, states: shrunk.trace.states,
                failure: shrunk.trace.failure ?? "", seed: runSeed, originalLength: found.events.count,
                shrinkSteps: shrunk.steps, minimality: minimality)
        }
    }
}

/// Replays `sequence` through a pure transition function, stopping at the first broken rule.
///
/// Postponed events wait in a queue of at most `postponeLimit` and are retried after every `.to`, as
/// ``StateMachine`` retries them; the trace holds the state after each sent event and its retries.
func runPure<State: Hashable, Event>(
    from initial: State, _ sequence: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool, postponeLimit: Int = 64
) -> ModelTrace<State> {
    guard invariant(initial) else {
        return ModelTrace(states: [], failure: "the invariant does not hold in the initial state")
    }
    var state = initial
    var states: [State] = []
    states.reserveCapacity(sequence.count)
    var postponed: [Event] = []
    /// Applies one event; returns what broke, if anything, and whether the machine moved (`.to`).
    func apply(_ event: Event, retried: Bool, position: Int) -> (failure: String?, moved: Bool) {
        // Built only for a failure: describing an event costs more than deciding it.
        func place() -> String {
            retried ? "retried \(event) after event \(position + 1)" : "event \(position + 1) (\(event))"
        }
        let decision = transition(state, event)
        let after = decision.target(from: state)
        var moved = false
        switch decision {
        case .ignore, .invalid, .postpone:
            if after != state { return ("rejected \(place()) changed the state", false) }
            if case .postpone = decision, postponed.count < postponeLimit { postponed.append(event) }
        case .to:
            moved = true
        case .update, .stay:
            break
        }
        state = after
        if !invariant(after) { return ("the invariant does not hold after \(place())", moved) }
        return (nil, moved)
    }
    for (position, sent) in sequence.enumerated() {
        var (failure, moved) = apply(sent, retried: false, position: position)
        // After a `.to`, the postponed events in arrival order; one postponed again waits for the next `.to`,
        // ahead of the ones not yet retried when a retry moves.
        var pending: [Event] = []
        var next = 0
        while failure == nil, moved, !postponed.isEmpty || next < pending.count {
            pending = postponed + pending[next...]
            postponed = []
            next = 0
            moved = false
            while failure == nil, !moved, next < pending.count {
                let event = pending[next]
                next += 1
                (failure, moved) = apply(event, retried: true, position: position)
            }
            if !moved { postponed += pending[next...] }
        }
        states.append(state)
        if let failure { return ModelTrace(states: states, failure: failure) }
    }
    return ModelTrace(states: states, failure: nil)
}
