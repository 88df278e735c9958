// The code of the "Visits and stale events" article; see GettingStartedSnippets.swift for the markers.

import StateMachineKit
import Testing

// snippet: feed-model
enum Feed: Hashable, Sendable {
    case idle
    case loading
    case loaded([String])
    case failed(String)
}

enum FeedEvent: Hashable, Sendable {
    case refresh
    case received([String])
    case failedWith(String)
}

func feed(_ state: Feed, _ event: FeedEvent) -> Transition<Feed, FeedEvent> {
    switch (state, event) {
    case (_, .refresh): .to(.loading)  // from .loading too: a new visit, a new request
    case (.loading, .received(let items)): .to(.loaded(items))
    case (.loading, .failedWith(let message)): .to(.failed(message))
    case (_, .received), (_, .failedWith): .invalid("an answer arrives only while loading")
    }
}
// end snippet

/// Stands in for a network request in the article: answers at once, or throws when cancelled.
func fetchItems() async throws -> [String] {
    try Task.checkCancellation()
    return ["a", "b"]
}

@Suite struct VisitsAndStaleEventsSnippets {
    @Test func workBelongsToTheLoadingVisit() async {
        // snippet: feed-while-in
        let machine = StateMachine(initial: Feed.idle, label: "feed", transition: feed)
        machine.whileIn(.loading, label: "fetch") { sender in
            do {
                let items = try await fetchItems()
                sender.send(.received(items))
            } catch {
                // Cancelled because the visit ended: this send is stale and dropped.
                sender.send(.failedWith("\(error)"))
            }
        }
        machine.send(.refresh)
        // end snippet
        for await state in machine.states() where state != .loading && state != .idle { break }
        #expect(machine.state == .loaded(["a", "b"]))
    }

    @Test func aSenderOfAnEndedVisitIsStale() {
        // snippet: feed-stale
        let machine = StateMachine(initial: Feed.idle, label: "feed", transition: feed)
        let (_, first) = machine.sendAndBind(.refresh)  // visit 2, the first request
        let (_, second) = machine.sendAndBind(.refresh)  // visit 3: the first answer no longer matters

        let late = first.send(.received(["old"]))  // .stale: dropped, recorded, reported
        let fresh = second.send(.received(["new"]))  // .moved
        let state = machine.state  // .loaded(["new"])
        // end snippet
        #expect(late == .stale)
        #expect(fresh == .moved)
        #expect(state == .loaded(["new"]))
        #expect(!first.isCurrent)
        #expect(machine.history.map(\.outcome) == [.moved, .moved, .stale, .moved])
    }

    @Test func cancellationSaysWhy() async {
        let causes = AsyncStream.makeStream(of: CancellationCause?.self)
        let record: @Sendable (CancellationCause?) -> Void = { causes.continuation.yield($0) }
        // snippet: feed-cause
        let machine = StateMachine(initial: Feed.idle, label: "feed", transition: feed)
        machine.whileIn(.loading, label: "spinner") { sender in
            try? await Task.sleep(for: .seconds(60))  // returns early when the visit ends
            record(sender.cancellationCause)  // .stateExited, or .machineStopped after stop()
        }
        // end snippet
        machine.send(.refresh)
        machine.send(.received([]))
        var iterator = causes.stream.makeAsyncIterator()
        #expect(await iterator.next() == .stateExited)
    }
}
