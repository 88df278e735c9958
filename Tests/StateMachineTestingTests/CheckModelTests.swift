import StateMachineKit
import StateMachineTesting
import Support
import Testing

/// A combination lock that opens (the planted bug) after `a`, `b`, `c` in a row; noise events in
/// between do not reset it. `noise` counts `tick`s, wrapping in the finite variant and unbounded in
/// the infinite one.
private struct Lock: Hashable, CustomStringConvertible {
    var progress: Int
    var noise: Int

    var description: String { "lock(progress: \(progress), noise: \(noise))" }
}

private enum Press: Hashable, CaseIterable {
    case a, b, c, tick, hum, buzz
}

private func lock(wrapNoiseAt wrap: Int?) -> (Lock, Press) -> Transition<Lock, Press> {
    { state, press in
        switch press {
        case .a: .to(Lock(progress: 1, noise: state.noise))
        case .b: .to(Lock(progress: state.progress == 1 ? 2 : 0, noise: state.noise))
        case .c: .to(Lock(progress: state.progress == 2 ? 3 : 0, noise: state.noise))
        case .tick:
            .update(Lock(progress: state.progress, noise: wrap.map { (state.noise + 1) % $0 } ?? state.noise + 1))
        case .hum: .stay
        case .buzz: state.progress == 0 ? .ignore : .invalid("buzzing mid-combination")
        }
    }
}

private let closed = Lock(progress: 0, noise: 0)
private func staysLocked(_ lock: Lock) -> Bool { lock.progress != 3 }
private let noEnvironment: [String: String] = [:]

@Suite struct CheckModelTests {
    @Test func plantedBugIsShrunkToItsThreeEventsThroughTheFiniteGraph() throws {
        let found = try #require(
            checkModel(
                from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: 3), invariant: staysLocked,
                seed: 7, environment: noEnvironment))
        #expect(found.events == [.a, .b, .c])
        #expect(
            found.states == [Lock(progress: 1, noise: 0), Lock(progress: 2, noise: 0), Lock(progress: 3, noise: 0)])
        #expect(found.seed == 7)
        #expect(found.originalLength >= 3)
        #expect(found.failure == "the invariant does not hold after event 3 (c)")
    }

    @Test(arguments: [1, 2, 3, 99] as [UInt64])
    func plantedBugIsShrunkToItsThreeEventsByRemovalWhenTheSpaceIsInfinite(seed: UInt64) throws {
        let found = try #require(
            checkModel(
                from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: nil), invariant: staysLocked,
                seed: seed, maximumStates: 500, environment: noEnvironment))
        #expect(found.events == [.a, .b, .c])
        #expect(found.states.map(\.progress) == [1, 2, 3])
        #expect(found.shrinkSteps > 0 || found.originalLength == 3)
        // Every sequence of one or two events was searched: none fails, so three is the shortest.
        #expect(found.minimality == .shortest)
    }

    @Test func aFiniteSpaceGivesTheGloballyShortestNotJustAOneMinimalSequence() throws {
        // Reaching 3 by ones is 1-minimal (no single removal still fails) but not shortest: one + two is.
        let found = try #require(
            checkModel(
                from: 0, events: ["one", "two"],
                transition: { (count: Int, step: String) in .to((count + (step == "one" ? 1 : 2)) % 10) },
                invariant: { $0 != 3 }, seed: 5, environment: noEnvironment))
        #expect(found.events == ["one", "two"])
        #expect(found.states == [1, 3])
    }

    @Test func anInfiniteSpaceStillGivesTheShortestFailureWhenEveryShorterSequenceIsSearched() throws {
        // The sums grow without bound, so the space is never explored whole; removal alone stops at the
        // 1-minimal [2, 5, 2], and the breadth-first search of the shorter sequences finds [5, 5].
        let found = try #require(
            checkModel(
                from: 0, events: [1, 2, 5], transition: { .to($0 + $1) }, invariant: { $0 < 9 }, seed: 7,
                environment: noEnvironment))
        #expect(
            found
                == Counterexample(
                    initial: 0, events: [5, 5], states: [5, 10],
                    failure: "the invariant does not hold after event 2 (5)", seed: 7,
                    originalLength: found.originalLength, shrinkSteps: found.shrinkSteps, minimality: .shortest))
    }

    @Test func aSearchBeyondItsBudgetSaysTheCounterexampleIsOnlyOneMinimal() throws {
        // Two states are too few to search the sequences shorter than the removal's answer.
        let found = try #require(
            checkModel(
                from: 0, events: [1, 2, 5], transition: { .to($0 + $1) }, invariant: { $0 < 9 }, seed: 7,
                maximumStates: 2, environment: noEnvironment))
        #expect(found.events.count == 3)
        #expect(found.events.reduce(0, +) >= 9)
        #expect(found.minimality == .oneMinimal)
        #expect(found.description.contains("1-minimal (no single event can be removed; a shorter sequence may exist)"))
    }

    @Test func theSameSeedGivesTheSameCounterexample() {
        let run = { (seed: UInt64) in
            checkModel(
                from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: nil), invariant: staysLocked,
                seed: seed, maximumStates: 200, environment: noEnvironment)
        }
        #expect(run(11) == run(11))
        #expect(run(12) == run(12))
    }

    @Test func theEnvironmentSeedOverridesTheExplicitOne() {
        let check = { (seed: UInt64?, environment: [String: String]) in
            checkModel(
                from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: nil), invariant: staysLocked,
                seed: seed, maximumStates: 200, environment: environment)
        }
        let overridden = check(1, ["STATE_MACHINE_SEED": "0x2A"])
        #expect(overridden?.seed == 42)
        #expect(overridden == check(42, noEnvironment))
        #expect(check(nil, ["STATE_MACHINE_SEED": "42"]) == check(42, noEnvironment))
    }

    @Test(
        arguments: [
            ("42", 42), ("0x2A", 42), ("0X2a", 42), (" 7\n", 7), ("18446744073709551615", UInt64.max),
            ("", nil), ("-1", nil), ("seven", nil), ("0x", nil), ("18446744073709551616", nil),
        ] as [(String, UInt64?)])
    func seedTextIsDecimalOrHexadecimal(text: String, value: UInt64?) {
        #expect(ModelSeed.parse(text) == value)
    }

    @Test func anExplicitSeedIsUsedWhenTheEnvironmentHasNone() {
        #expect(ModelSeed.resolve(explicit: 9, environment: ["OTHER": "1"]) == 9)
    }

    @Test func aPassingModelReportsNil() {
        let found = checkModel(
            from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: 3),
            invariant: { (0...3).contains($0.progress) && (0..<3).contains($0.noise) },
            seed: 3, environment: noEnvironment)
        #expect(found == nil)
    }

    @Test func aBrokenInitialStateFailsWithNoEvents() throws {
        let found = try #require(
            checkModel(
                from: Lock(progress: 3, noise: 0), events: Press.allCases, transition: lock(wrapNoiseAt: 3),
                invariant: staysLocked, seed: 1, environment: noEnvironment))
        #expect(found.events == [])
        #expect(found.states == [])
        #expect(found.failure == "the invariant does not hold in the initial state")
    }

    @Test func theDescriptionIsPasteableSwiftWithTheStateAfterEachEvent() throws {
        let found = try #require(
            checkModel(
                from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: 3), invariant: staysLocked,
                seed: 7, environment: noEnvironment))
        #expect(
            found.description == """
                // Counterexample: the invariant does not hold after event 3 (c)
                // seed 7 (replay: STATE_MACHINE_SEED=7); 3 of \(found.originalLength) events after \(found.shrinkSteps) shrink steps, shortest
                // initial state: lock(progress: 0, noise: 0)
                let events: [Press] = [
                    .a,  // → lock(progress: 1, noise: 0)
                    .b,  // → lock(progress: 2, noise: 0)
                    .c,  // → lock(progress: 3, noise: 0)
                ]
                """)
    }

    @Test func splitMix64MatchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(
            [generator.next(), generator.next(), generator.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    @Test func boundedDrawsStayBelowTheBoundAndCoverIt() {
        var generator = SplitMix64(seed: 1)
        let draws = (0..<600).map { _ in generator.next(below: 6) }
        #expect(Set(draws) == Set(0..<6))
    }

    @Test func expectModelRecordsAnIssueShowingTheCounterexample() {
        withKnownIssue {
            expectModel(
                from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: 3), invariant: staysLocked,
                seed: 7)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("let events: [Press] = [") }
        }
    }

    @Test func expectModelRecordsNothingForAPassingModel() {
        let found = expectModel(
            from: closed, events: Press.allCases, transition: lock(wrapNoiseAt: 3),
            invariant: { $0.progress <= 3 }, seed: 7)
        #expect(found == nil)
    }
}
