import StateMachineKit
import Support

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Model-checks a live `StateMachine` — its `whileIn` work and state timeouts included — by running
/// random sequences of steps (events and `TestClock` advances) on fresh machines from `make`.
///
/// After every step the machine is given time to settle (see `settle`), then every record it added
/// to its history — events from work and timeouts as well as the step's own — is checked: the
/// invariant holds in its `after` state, and a rejected event (`ignored`, `invalid`) left the state as
/// it was. The current state is checked too, so the rules hold even with a short history.
///
/// Failing sequences are shrunk by removing chunks, then single steps, until no removal still fails
/// (1-minimal); a live machine has no graph to search. Seeds work as in ``checkModel(from:events:transition:invariant:sequences:maximumLength:seed:maximumStates:postponeLimit:)``.
///
/// - Parameters:
///   - make: a fresh machine, with its work registered, and the test clock it runs on; called once
///     per run (the machine is stopped at the end of the run).
///   - events: the steps random sequences are drawn from.
///   - invariant: the rule every state the machine passes through must keep.
///   - sequences: how many random sequences to run.
///   - maximumLength: how many steps each sequence has.
///   - seed: the seed of the run; `STATE_MACHINE_SEED` overrides it, and a random one is used without either.
///   - environment: where `STATE_MACHINE_SEED` is read from.
///   - settle: awaited after every step and once before the first. The default yields until the
///     machine's history, visit and the clock's sleepers have not changed for a while; pass one that
///     awaits what your machine does (for example `clock.sleepers(atLeast:)`) for exact determinism.
public func checkLiveModel<State: Hashable & Sendable, Event: Sendable>(
    make: () -> (StateMachine<State, Event>, TestClock),
    events: [LiveStep<Event>], invariant: (State) -> Bool, sequences: Int = 100, maximumLength: Int = 20,
    seed: UInt64? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
    settle: (StateMachine<State, Event>, TestClock) async -> Void = { machine, clock in
        await settleByYielding(machine, clock)
    }
) async -> Counterexample<State, LiveStep<Event>>? {
    let runSeed = ModelSeed.resolve(explicit: seed, environment: environment)
    precondition(sequences >= 0, "checkLiveModel: sequences must not be negative, got \(sequences)")
    precondition(maximumLength >= 0, "checkLiveModel: maximumLength must not be negative, got \(maximumLength)")
    precondition(
        !events.isEmpty || maximumLength == 0,
        "checkLiveModel: events is empty, so no sequence of length \(maximumLength) can be drawn")

    func run(_ steps: [LiveStep<Event>]) async -> (initial: State, trace: ModelTrace<State>) {
        await runLive(steps, make: make, invariant: invariant, settle: settle)
    }

    var generator = SplitMix64(seed: runSeed)
    var sequence: [LiveStep<Event>] = []
    for _ in 0..<sequences {
        sequence = (0..<maximumLength).map { _ in events[generator.next(below: events.count)] }
        let (initial, trace) = await run(sequence)
        guard trace.failure != nil else { continue }
        let failing = Array(sequence.prefix(trace.states.count))
        var shrinker = RemovalShrinker(failing: failing, trace: trace)
        while let candidate = shrinker.nextCandidate() {
            shrinker.record(candidate, await run(candidate).trace)
        }
        return Counterexample(
            initial: initial, events: shrinker.current, states: shrinker.trace.states,
            failure: shrinker.trace.failure ?? "", seed: runSeed, originalLength: failing.count,
            shrinkSteps: shrinker.steps)
    }
    return nil
}

/// One run of `steps` on a fresh machine from `make`, settled after each step: its initial state and the states
/// it passed through, ending at the first record or state that breaks the rules (``liveProblem(in:during:invariant:)``).
private func runLive<State: Hashable & Sendable, Event: Sendable>(
    _ steps: [LiveStep<Event>], make: () -> (StateMachine<State, Event>, TestClock), invariant: (State) -> Bool,
    settle: (StateMachine<State, Event>, TestClock) async -> Void
) async -> (initial: State, trace: ModelTrace<State>) {
    let (machine, clock) = make()
    defer { machine.stop() }
    await settle(machine, clock)
    let initial = machine.state
    var checked = machine.sequence
    guard invariant(initial) else {
        return (initial, ModelTrace(states: [], failure: "the invariant does not hold in the initial state"))
    }
    var states: [State] = []
    for (position, step) in steps.enumerated() {
        switch step {
        case .send(let event): machine.send(event)
        case .advance(let duration): clock.advance(by: duration)
        }
        await settle(machine, clock)
        let state = machine.state
        states.append(state)
        let place = "step \(position + 1) (\(step))"
        for record in machine.history where record.sequence > checked {
            checked = record.sequence
            if let failure = liveProblem(in: record, during: place, invariant: invariant) {
                return (initial, ModelTrace(states: states, failure: failure))
            }
        }
        if !invariant(state) {
            return (initial, ModelTrace(states: states, failure: "the invariant does not hold after \(place)"))
        }
    }
    return (initial, ModelTrace(states: states, failure: nil))
}

/// What is wrong with `record`, a step of a live run: a rejected or postponed event that changed the
/// state, or an `after` state that breaks the invariant; nil when nothing is.
private func liveProblem<State: Hashable & Sendable, Event: Sendable>(
    in record: StateMachine<State, Event>.Record, during place: String, invariant: (State) -> Bool
) -> String? {
    let unchangedBy: String?
    switch record.outcome {
    case .ignored, .invalid: unchangedBy = "rejected"
    case .postponed, .overflowed: unchangedBy = "postponed"
    case .moved, .updated, .stayed, .stopped, .stale: unchangedBy = nil
    }
    if let unchangedBy, record.after != record.before {
        return
            "\(unchangedBy) event \(record.event) (\(record.outcome)) changed the state from \(record.before) to \(record.after) during \(place)"
    }
    if !invariant(record.after) {
        return "the invariant does not hold in \(record.after), reached by \(record.event) during \(place)"
    }
    return nil
}

/// Yields until the machine's newest history record, its visit and the clock's pending sleeps have
/// stayed the same for `quietYields` yields in a row: the default settling of ``checkLiveModel(make:events:invariant:sequences:maximumLength:seed:environment:settle:)``.
///
/// Work that has not started yet is invisible to this check, so on a loaded machine it can return
/// early; a settle that awaits the machine's known effects is exact.
public func settleByYielding<State: Hashable & Sendable, Event: Sendable>(
    _ machine: StateMachine<State, Event>, _ clock: TestClock, quietYields: Int = 16
) async {
    func snapshot() -> (Int?, Int, Int) { (machine.history.last?.sequence, machine.visit, clock.pendingSleeps) }
    var last = snapshot()
    var quiet = 0
    while quiet < quietYields {
        await Task.yield()
        let now = snapshot()
        if now == last {
            quiet += 1
        } else {
            quiet = 0
            last = now
        }
    }
}
