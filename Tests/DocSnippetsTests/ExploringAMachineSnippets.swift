// The code of the "Exploring a machine and reading its diagram" article; see GettingStartedSnippets.swift
// for the markers. ArticleSnippetTests also checks the article's diagram and table against the code.

import StateMachineKit
import Testing

@Suite struct ExploringAMachineSnippets {
    @Test func exploringTheDoor() {
        // snippet: door-explore
        let graph = StateGraph.explore(from: Door.closed, events: DoorEvent.allCases, transition: door)

        let states = graph.states  // [.closed, .opened, .locked], in discovery order
        let edges = graph.edgeCount  // 4
        let invalid = graph.invalid  // [(opened, lock): "cannot lock an open door"]
        let unreachable = graph.unreachable(of: Door.allCases)  // []
        let deadEnds = graph.deadEnds  // []
        let path = graph.shortestPath(to: { $0 == .locked })  // [.lock]
        // end snippet
        #expect(states == [.closed, .opened, .locked])
        #expect(edges == 4)
        #expect(
            invalid == [
                StateGraph<Door, DoorEvent>.InvalidPair(
                    state: .opened, event: .lock, reason: "cannot lock an open door")
            ])
        #expect(unreachable.isEmpty)
        #expect(deadEnds.isEmpty)
        #expect(path == [.lock])
    }

    // snippet: door-graph-test
    @Test func doorHasNoSurprises() {
        let graph = StateGraph.explore(from: Door.closed, events: DoorEvent.allCases, transition: door)
        #expect(!graph.isTruncated)
        #expect(graph.invalid.map(\.reason) == ["cannot lock an open door"])
        #expect(graph.unreachable(of: Door.allCases).isEmpty)
        #expect(graph.deadEnds.isEmpty)
    }
    // end snippet

    @Test func exploringOnEveryCore() {
        // snippet: door-all-cores
        let graph = StateGraph.explore(
            from: Door.closed, events: DoorEvent.allCases, maximumStates: 1_000_000, workers: .allCores,
            transition: door)
        // end snippet
        #expect(graph.states == Self.doorGraph.states && graph.edges == Self.doorGraph.edges)
    }

    /// The renderings the article shows, produced here so ArticleSnippetTests can compare them.
    static var doorGraph: StateGraph<Door, DoorEvent> {
        StateGraph.explore(from: Door.closed, events: DoorEvent.allCases, transition: door)
    }
}
