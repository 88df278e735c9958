import Testing

@testable import StateMachineTesting

@Suite struct RemovalShrinkerTests {
    /// Drives the shrinker with a rule over whole sequences: fails when `fails` says so, at its last event.
    private func shrink(_ sequence: [Int], fails: ([Int]) -> Bool) -> (events: [Int], steps: Int) {
        func run(_ candidate: [Int]) -> ModelTrace<Int> {
            ModelTrace(states: candidate, failure: fails(candidate) ? "fails" : nil)
        }
        var shrinker = RemovalShrinker(failing: sequence, trace: run(sequence))
        while let candidate = shrinker.nextCandidate() {
            shrinker.record(candidate, run(candidate))
        }
        return (shrinker.current, shrinker.steps)
    }

    @Test func keepsOnlyTheEventsTheFailureNeeds() {
        let result = shrink(Array(0..<40)) { $0.contains(3) && $0.contains(27) && $0.contains(31) }
        #expect(result.events == [3, 27, 31])
        #expect(result.steps > 0)
    }

    @Test func theResultIsOneMinimal() {
        // Fails while at least three even numbers remain: any three evens are a 1-minimal answer.
        let isFailing = { (events: [Int]) in events.filter { $0.isMultiple(of: 2) }.count >= 3 }
        let result = shrink(Array(0..<25), fails: isFailing)
        #expect(isFailing(result.events))
        for position in result.events.indices {
            var smaller = result.events
            smaller.remove(at: position)
            #expect(!isFailing(smaller))
        }
    }

    @Test func aSequenceThatCannotShrinkIsLeftAlone() {
        let result = shrink([1, 2]) { $0 == [1, 2] }
        #expect(result.events == [1, 2])
        #expect(result.steps == 0)
    }

    @Test func anEmptyFailureStaysEmpty() {
        let result = shrink([]) { _ in true }
        #expect(result.events == [])
        #expect(result.steps == 0)
    }
}
