import StateMachineKit
import StateMachineTesting
import Testing

@testable import FileTransfer

/// The copy job's lifecycle machine: its transition table, explored exhaustively, and model-checked.
@Suite struct CopyLifecycleTests {
    typealias Lifecycle = CopyLifecycle
    typealias Decision = Transition<CopyLifecycle, CopyLifecycleEvent>

    static let activeRun = "a run began while another run of the job was active"
    static let unaskedCancel = "a run stopped for a cancel nobody asked for"
    static let noRun = "a run finished while none was active"
    static let unaskedDiscard = "a partial was discarded that nobody was asked to discard"

    /// Every accepted step, and the rejections that matter, with the decision they must get.
    static let table: [(CopyLifecycle, CopyLifecycleEvent, Decision)] = [
        (.ready, .begin, .to(.running)),
        (.completed, .begin, .to(.running)),
        (.running, .begin, .invalid(activeRun)),
        (.cancelled, .begin, .ignore),
        (.discarding, .begin, .ignore),
        (.running, .interrupt, .update(.interrupting)),
        (.cancelling, .interrupt, .stay),
        (.ready, .interrupt, .ignore),
        (.ready, .cancel, .to(.discarding)),
        (.running, .cancel, .update(.cancelling)),
        (.interrupting, .cancel, .update(.cancelling)),
        (.completed, .cancel, .ignore),
        (.cancelled, .cancel, .stay),
        (.running, .finished(.completed), .to(.completed)),
        (.cancelling, .finished(.completed), .to(.completed)),
        (.running, .finished(.stopped), .to(.ready)),
        (.interrupting, .finished(.stopped), .to(.ready)),
        (.cancelling, .finished(.stopped), .update(.discarding)),
        (.cancelling, .finished(.cancelled), .update(.discarding)),
        (.running, .finished(.cancelled), .invalid(unaskedCancel)),
        (.ready, .finished(.stopped), .invalid(noRun)),
        (.discarding, .discarded, .to(.cancelled)),
        (.ready, .discarded, .invalid(unaskedDiscard)),
    ]

    @Test(arguments: table)
    func transitionTable(state: CopyLifecycle, event: CopyLifecycleEvent, expected: Decision) {
        #expect(CopyLifecycle.transition(state, event) == expected)
    }

    /// Every state is reachable, `cancelled` is the only dead end, and the impossible pairs are exactly
    /// the ones a run's sender or the discarding party can never produce.
    @Test func explorationReachesEveryStateWithOnlyTheExpectedInvalidPairs() {
        let graph = StateGraph.explore(
            from: CopyLifecycle.ready, events: CopyLifecycleEvent.all, transition: CopyLifecycle.transition)
        #expect(graph.unreachable(of: CopyLifecycle.allCases) == [])
        #expect(graph.deadEnds == [.cancelled])
        let invalid = Set(graph.invalid.map { "\($0.state) \($0.event): \($0.reason)" })
        var expected: Set<String> = []
        for state in [CopyLifecycle.running, .interrupting, .cancelling] {
            expected.insert("\(state) begin: \(Self.activeRun)")
        }
        for state in [CopyLifecycle.running, .interrupting] {
            expected.insert("\(state) finished(cancelled): \(Self.unaskedCancel)")
        }
        for state in [CopyLifecycle.ready, .discarding, .completed, .cancelled] {
            for end in [CopyRunEnd.completed, .stopped, .cancelled] {
                expected.insert("\(state) finished(\(end)): \(Self.noRun)")
            }
        }
        for state in CopyLifecycle.allCases where state != .discarding {
            expected.insert("\(state) discarded: \(Self.unaskedDiscard)")
        }
        #expect(invalid == expected)
    }

    /// Whatever order things happen in, a run's stop request is never forgotten: while a cancel is
    /// pending or being carried out the machine never goes back to a state that would run or keep the
    /// partial, and a rejected event changes nothing.
    @Test func aCancelIsNeverLostOnTheWayToCancelled() {
        // The one fact the state cannot show is whether a cancel arrived; the model pairs it with the state.
        struct Model: Hashable {
            var state: CopyLifecycle
            var cancelAsked: Bool
        }
        func transition(_ model: Model, _ event: CopyLifecycleEvent) -> Transition<Model, CopyLifecycleEvent> {
            let decision = CopyLifecycle.transition(model.state, event)
            let asked = model.cancelAsked || (event == .cancel && model.state != .completed)
            switch decision {
            case .to(let next, _): return .to(Model(state: next, cancelAsked: asked && next != .completed))
            case .update(let next): return .update(Model(state: next, cancelAsked: asked))
            case .stay:
                return asked == model.cancelAsked ? .stay : .update(Model(state: model.state, cancelAsked: asked))
            case .ignore: return .ignore
            case .invalid(let reason): return .invalid(reason)
            case .postpone: return .postpone
            }
        }
        expectModel(
            from: Model(state: .ready, cancelAsked: false), events: CopyLifecycleEvent.all, transition: transition,
            invariant: { model in
                switch model.state {
                case .ready, .running, .interrupting: !model.cancelAsked
                case .cancelling, .discarding, .cancelled: model.cancelAsked
                case .completed: !model.cancelAsked
                }
            }, seed: 14)
    }
}
