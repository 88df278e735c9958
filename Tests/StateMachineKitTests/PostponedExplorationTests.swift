import StateMachineKit
import Testing

@Suite struct PostponedExplorationTests {
    static let events: [GateEvent] = [.open, .opened, .close, .pass(1)]

    @Test func withoutAQueueAPostponementNamesNoNodeAndTheStatesAreTheReachableOnes() {
        let graph = StateGraph.explore(from: Gate.closed, events: Self.events, transition: gate)
        #expect(graph.states == [.closed, .opening(percent: 0), .open(passed: []), .open(passed: [1])])
        #expect(graph.verdict(stateIndex: 0, eventIndex: 3) == .postpone)
        #expect(graph.edges.allSatisfy { $0.kind != .postpone })
        // Every state a queue can lead to is among them.
        let queued = StateGraph.explore(from: Gate.closed, events: Self.events, postponeLimit: 2, transition: gate)
        #expect(Set(queued.states.map(\.state)) == Set(graph.states))
    }

    @Test func withAQueueEveryConfigurationIsANode() {
        let graph = StateGraph.explore(from: Gate.closed, events: Self.events, postponeLimit: 2, transition: gate)
        #expect(graph.states.count == 12)
        #expect(graph.position(of: PostponedState(.opening(percent: 0), postponed: [.close, .pass(1)])) == 9)
        #expect(
            graph.mermaid == """
                stateDiagram-v2
                    [*] --> s0
                    s0 : closed
                    s1 : opening(percent: 0)
                    s2 : closed [postponed: pass(1)]
                    s3 : open(passed: [])
                    s4 : opening(percent: 0) [postponed: close]
                    s5 : opening(percent: 0) [postponed: pass(1)]
                    s6 : closed [postponed: pass(1), pass(1)]
                    s7 : open(passed: [1])
                    s8 : opening(percent: 0) [postponed: close, close]
                    s9 : opening(percent: 0) [postponed: close, pass(1)]
                    s10 : opening(percent: 0) [postponed: pass(1), close]
                    s11 : opening(percent: 0) [postponed: pass(1), pass(1)]
                    s0 --> s1 : open
                    s0 --> s2 : pass(1) (postpone)
                    s1 --> s3 : opened
                    s1 --> s4 : close (postpone)
                    s1 --> s5 : pass(1) (postpone)
                    s2 --> s5 : open
                    s2 --> s6 : pass(1) (postpone)
                    s3 --> s0 : close
                    s3 --> s7 : pass(1) (update)
                    s4 --> s0 : opened
                    s4 --> s8 : close (postpone)
                    s4 --> s9 : pass(1) (postpone)
                    s5 --> s7 : opened
                    s5 --> s10 : close (postpone)
                    s5 --> s11 : pass(1) (postpone)
                    s6 --> s11 : open
                    s7 --> s0 : close
                    s8 --> s0 : opened
                    s9 --> s2 : opened
                    s10 --> s0 : opened
                    s11 --> s7 : opened
                """ + "\n")
        #expect(
            graph.transitionTable == """
                | state                                             | open                                              | opened                      | close                                           | pass(1)                                           |
                | ------------------------------------------------- | ------------------------------------------------- | --------------------------- | ----------------------------------------------- | ------------------------------------------------- |
                | closed                                            | opening(percent: 0)                               | !                           | ·                                               | closed [postponed: pass(1)]                       |
                | opening(percent: 0)                               | !                                                 | open(passed: [])            | opening(percent: 0) [postponed: close]          | opening(percent: 0) [postponed: pass(1)]          |
                | closed [postponed: pass(1)]                       | opening(percent: 0) [postponed: pass(1)]          | !                           | ·                                               | closed [postponed: pass(1), pass(1)]              |
                | open(passed: [])                                  | !                                                 | !                           | closed                                          | open(passed: [1])                                 |
                | opening(percent: 0) [postponed: close]            | !                                                 | closed                      | opening(percent: 0) [postponed: close, close]   | opening(percent: 0) [postponed: close, pass(1)]   |
                | opening(percent: 0) [postponed: pass(1)]          | !                                                 | open(passed: [1])           | opening(percent: 0) [postponed: pass(1), close] | opening(percent: 0) [postponed: pass(1), pass(1)] |
                | closed [postponed: pass(1), pass(1)]              | opening(percent: 0) [postponed: pass(1), pass(1)] | !                           | ·                                               | ~                                                 |
                | open(passed: [1])                                 | !                                                 | !                           | closed                                          | =                                                 |
                | opening(percent: 0) [postponed: close, close]     | !                                                 | closed                      | ~                                               | ~                                                 |
                | opening(percent: 0) [postponed: close, pass(1)]   | !                                                 | closed [postponed: pass(1)] | ~                                               | ~                                                 |
                | opening(percent: 0) [postponed: pass(1), close]   | !                                                 | closed                      | ~                                               | ~                                                 |
                | opening(percent: 0) [postponed: pass(1), pass(1)] | !                                                 | open(passed: [1])           | ~                                               | ~                                                 |
                """ + "\n")
    }

    @Test func aQueueNeverFilledRendersExactlyLikeThePlainGraph() {
        let neverPostponing: @Sendable (Gate, GateEvent) -> Transition<Gate, GateEvent> = { state, event in
            let decision = gate(state, event)
            return decision == .postpone ? .ignore : decision
        }
        let plain = StateGraph.explore(from: Gate.closed, events: Self.events, transition: neverPostponing)
        let queued = StateGraph.explore(
            from: Gate.closed, events: Self.events, postponeLimit: 4, transition: neverPostponing)
        #expect(queued.mermaid == plain.mermaid)
        #expect(queued.dot == plain.dot)
        #expect(queued.transitionTable == plain.transitionTable)
    }

    @Test func aPostponeEdgeIsDottedInGraphviz() {
        let graph = StateGraph.explore(from: Gate.closed, events: [.pass(1)], postponeLimit: 1, transition: gate)
        #expect(
            graph.dot == """
                digraph StateGraph {
                    rankdir=LR;
                    node [shape=box, style=rounded];
                    start [shape=point];
                    s0 [label="closed"];
                    s1 [label="closed [postponed: pass(1)]"];
                    start -> s0;
                    s0 -> s1 [label="pass(1)", style=dotted];
                }
                """ + "\n")
        #expect(
            graph.edges == [
                StateGraph.Edge(from: graph.states[0], event: .pass(1), to: graph.states[1], kind: .postpone)
            ])
    }
}
