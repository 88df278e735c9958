import SeedModels
import StateMachineKit
import Support
import Testing

@Suite struct TransferSequenceTests {
    /// Events mixing cancel, restart, delayed and backward progress, stale and duplicate outcomes
    /// (seed 000's "Test sequences and invariants").
    static func randomEvent(_ generator: inout SplitMix64) -> TransferEvent {
        let request = Int.random(in: 0...5, using: &generator)
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return .start
        case 1, 2: return .progress(request: request, percent: Int.random(in: -5...105, using: &generator))
        case 3: return .pause
        case 4: return .resume
        case 5: return .succeeded(request: request, file: Bool.random(using: &generator) ? "file" : "")
        case 6: return .failed(request: request, message: "offline")
        case 7: return .cancel
        default: return .retry
        }
    }

    /// After every event of 300 seeded sequences: the model is consistent, a rejected event leaves
    /// the whole model unchanged, percent never decreases within one running phase, and a request
    /// id that stopped being active never becomes active again.
    @Test func invariantsHoldAfterEveryEvent() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<300 {
            var model = TransferModel.initial
            var retired: Set<Int> = []
            for _ in 0..<60 {
                let event = Self.randomEvent(&generator)
                let decision = TransferModel.transition(model, event)
                let next = decision.target(from: model)
                #expect(next.isConsistent, "\(model) --\(event)--> \(next)")
                if !decision.isAccepted { #expect(next == model) }
                if case .running(let before, let old) = model.phase, case .running(let after, let new) = next.phase,
                    before == after, case .update = decision
                {
                    #expect(new >= old, "\(model) --\(event)--> \(next)")
                }
                if let active = model.phase.activeRequest, next.phase.activeRequest != active { retired.insert(active) }
                if let active = next.phase.activeRequest { #expect(!retired.contains(active), "id \(active) reused") }
                model = next
            }
        }
    }
}
