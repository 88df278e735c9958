import StateMachineKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Testing)
import Testing

/// Runs ``checkModel(from:events:transition:invariant:sequences:maximumLength:seed:maximumStates:postponeLimit:)`` and
/// records a Swift Testing issue at the caller's location showing the counterexample when it fails.
///
/// Returns the counterexample too, for tests that want to look further.
@discardableResult
public func expectModel<State: Hashable, Event>(
    from initial: State, events: [Event], transition: (State, Event) -> Transition<State, Event>,
    invariant: (State) -> Bool, sequences: Int = 500, maximumLength: Int = 40, seed: UInt64? = nil,
    maximumStates: Int = 100_000, postponeLimit: Int = 64, sourceLocation: SourceLocation = #_sourceLocation
) -> Counterexample<State, Event>? {
    let found = checkModel(
        from: initial, events: events, transition: transition, invariant: invariant, sequences: sequences,
        maximumLength: maximumLength, seed: seed, maximumStates: maximumStates, postponeLimit: postponeLimit)
    if let found {
        Issue.record(Comment(rawValue: "Model check failed\n\(found)"), sourceLocation: sourceLocation)
    }
    return found
}

/// Runs ``checkLiveModel(make:events:invariant:sequences:maximumLength:seed:environment:settle:)`` and
/// records a Swift Testing issue at the caller's location showing the counterexample when it fails.
@discardableResult
public func expectLiveModel<State: Hashable & Sendable, Event: Sendable>(
    make: () -> (StateMachine<State, Event>, TestClock),
    events: [LiveStep<Event>], invariant: (State) -> Bool, sequences: Int = 100, maximumLength: Int = 20,
    seed: UInt64? = nil,
    settle: (StateMachine<State, Event>, TestClock) async -> Void = { machine, clock in
        await settleByYielding(machine, clock)
    },
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Counterexample<State, LiveStep<Event>>? {
    let found = await checkLiveModel(
        make: make, events: events, invariant: invariant, sequences: sequences, maximumLength: maximumLength,
        seed: seed, environment: ProcessInfo.processInfo.environment, settle: settle)
    if let found {
        Issue.record(Comment(rawValue: "Live model check failed\n\(found)"), sourceLocation: sourceLocation)
    }
    return found
}
#endif
