import Foundation
import StateMachineKit

/// Sends random sequences of `events` through `transition` from `initial` and checks the model's rules
/// after every event; returns the shortest failing sequence it can find, or nil when every sequence passes.
///
/// The rules: `invariant` holds in the initial state and after every event, and a rejected event
/// (`.ignore`, `.invalid`) leaves the state exactly as it was. Sequences come from a ``SplitMix64``
/// seeded with `seed`, or with `STATE_MACHINE_SEED` from the environment when that is set (so a failure
/// printed in CI replays locally), or with a random seed; the seed used is in the counterexample.
///
/// A failure is shrunk. When the states reachable from `initial` number at most `maximumStates`, the
/// result is the globally shortest failing sequence, found breadth-first through the `StateGraph`.
/// Otherwise chunks and then single events are removed until no removal still fails (1-minimal).
public func checkModel<State: Hashable, Event>(
    from initial: State, events: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool, sequences: Int = 500, maximumLength: Int = 40, seed: UInt64? = nil,
    maximumStates: Int = 100_000
) -> Counterexample<State, Event>? {
    checkModel(
        from: initial, events: events, transition: transition, invariant: invariant, sequences: sequences,
        maximumLength: maximumLength, seed: seed, maximumStates: maximumStates,
        environment: ProcessInfo.processInfo.environment)
}

/// ``checkModel(from:events:transition:invariant:sequences:maximumLength:seed:maximumStates:)`` with the
/// environment passed in, so the `STATE_MACHINE_SEED` override can be tested without touching the process.
public func checkModel<State: Hashable, Event>(
    from initial: State, events: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool, sequences: Int = 500, maximumLength: Int = 40, seed: UInt64? = nil,
    maximumStates: Int = 100_000, environment: [String: String]
) -> Counterexample<State, Event>? {
    let runSeed = ModelSeed.resolve(explicit: seed, environment: environment)
    return withoutActuallyEscaping(transition) { transition in
        withoutActuallyEscaping(invariant) { invariant in
            let search = ModelSearch<State, Event>(events: events) { sequence in
                runPure(from: initial, sequence, transition: transition, invariant: invariant)
            }
            guard let found = search.findFailure(sequences: sequences, maximumLength: maximumLength, seed: runSeed)
            else {
                return nil
            }
            let graph = StateGraph.explore(
                from: initial, events: events, maximumStates: maximumStates, transition: transition)
            let shrunk: (events: [Event], trace: ModelTrace<State>, steps: Int)
            if !graph.isTruncated, let path = graph.shortestPath(to: { !invariant($0) }) {
                // The whole reachable space is known, so the breadth-first path is the shortest failure
                // there is; it replaces the random one in a single step.
                let trace = search.run(path)
                precondition(trace.failure != nil, "Internal inconsistency: the shortest path to a violation passes")
                shrunk = (path, trace, path.count < found.events.count ? 1 : 0)
            } else {
                shrunk = search.shrinkByRemoval(found.events, trace: found.trace)
            }
            return Counterexample(
                initial: initial, events: shrunk.events, states: shrunk.trace.states,
                failure: shrunk.trace.failure ?? "", seed: runSeed, originalLength: found.events.count,
                shrinkSteps: shrunk.steps)
        }
    }
}

/// Replays `sequence` through a pure transition function, stopping at the first broken rule.
func runPure<State: Hashable, Event>(
    from initial: State, _ sequence: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool
) -> ModelTrace<State> {
    guard invariant(initial) else {
        return ModelTrace(states: [], failure: "the invariant does not hold in the initial state")
    }
    var state = initial
    var states: [State] = []
    states.reserveCapacity(sequence.count)
    for (position, event) in sequence.enumerated() {
        let decision = transition(state, event)
        let next = decision.target(from: state)
        states.append(next)
        if !decision.isAccepted, next != state {
            return ModelTrace(states: states, failure: "rejected event \(position + 1) (\(event)) changed the state")
        }
        if !invariant(next) {
            return ModelTrace(
                states: states, failure: "the invariant does not hold after event \(position + 1) (\(event))")
        }
        state = next
    }
    return ModelTrace(states: states, failure: nil)
}
