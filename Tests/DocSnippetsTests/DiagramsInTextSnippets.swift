// The code of the "Diagrams in text" article; see GettingStartedSnippets.swift for the markers. The test
// below also checks that the article's drawing is what the code prints.

import StateMachineDiagrams
import StateMachineKit
import Testing

/// A music player whose states carry the track: three cases, many concrete states.
enum Player: Hashable, Sendable, CustomStringConvertible {
    case stopped
    case playing(track: Int)
    case paused(track: Int)

    var description: String {
        switch self {
        case .stopped: "stopped"
        case .playing(let track): "playing(track: \(track))"
        case .paused(let track): "paused(track: \(track))"
        }
    }
}

/// The player's events.
enum PlayerEvent: Hashable, Sendable, CustomStringConvertible {
    case play(track: Int)
    case pause, resume, next, stop

    static let samples: [PlayerEvent] = [.play(track: 1), .pause, .resume, .next, .stop]

    var description: String {
        switch self {
        case .play(let track): "play(track: \(track))"
        case .pause: "pause"
        case .resume: "resume"
        case .next: "next"
        case .stop: "stop"
        }
    }
}

func player(_ state: Player, _ event: PlayerEvent) -> Transition<Player, PlayerEvent> {
    switch (state, event) {
    case (.stopped, .play(let track)): .to(.playing(track: track))
    case (.playing(let track), .pause): .to(.paused(track: track))
    case (.paused(let track), .resume): .to(.playing(track: track))
    case (.playing(let track), .next): .update(.playing(track: track % 3 + 1))
    case (.playing, .stop), (.paused, .stop): .to(.stopped)
    case (.stopped, _), (.playing, _), (.paused, _): .ignore
    }
}

@Suite struct DiagramsInTextSnippets {
    @Test func theArticlesDrawingIsWhatTheLayoutPrints() throws {
        // snippet: player-case-diagram
        let graph = StateGraph.explore(from: Player.stopped, events: PlayerEvent.samples, transition: player)
        let drawing = DiagramLayout(graph.caseDiagram).text  // one box per case, arrows by event case
        // end snippet
        let blocks = try ArticleSnippetTests.blocks(of: "StateMachineDiagrams.docc/DiagramsInText.md")
        let shown = try #require(blocks.first { $0.language == "text" })
        #expect(shown.text + "\n" == drawing)
        #expect(graph.caseDiagram.nodes == ["stopped", "playing", "paused"])
        #expect(graph.fullDiagram.nodes.count == 7)
    }
}
