import Foundation
import StateMachineDiagrams
import StateMachineKit
import Testing

/// Text layouts of small graphs, exactly, and the collapse of a state graph by a grouping function.
@Suite struct DiagramLayoutTests {
    @Test func anEdgeDrawsAsAnArrowFromTheInitialBoxWithItsLabel() {
        let graph = DiagramGraph(nodes: ["idle", "running"], edges: [.init(from: 0, to: 1, label: "start")])
        #expect(
            DiagramLayout(graph).text == """
                  ╔══════╗
                  ║ idle ║
                  ╚══╤═══╝
                     ▼ start
                ┌─────────┐
                │ running │
                └─────────┘

                """)
        #expect(
            DiagramLayout(graph, charset: .ascii).text == """
                  +======+
                  | idle |
                  +==+===+
                     v start
                +---------+
                | running |
                +---------+

                """)
    }

    @Test func edgesBothWaysShareALineWithAnArrowheadAtEachEndAndSelfLoopsSitOnTheRight() {
        let graph = DiagramGraph(
            nodes: ["a", "b"],
            edges: [
                .init(from: 0, to: 1, label: "go"), .init(from: 1, to: 0, label: "back"),
                .init(from: 1, to: 1, label: "tick"),
            ])
        #expect(
            DiagramLayout(graph).text == """
                ╔═══╗
                ║ a ║
                ╚═══╝
                  ▲
                  │ ▼ go  ▲ back
                  ▼
                ┌───┐
                │ b ├─╮ tick
                └───┘◀╯

                """)
        let layout = DiagramLayout(graph)
        let loop = [(4, 7), (5, 7), (6, 7), (6, 8), (5, 8)].map { DiagramLayout.Point(x: $0.0, y: $0.1) }
        let column = (2...6).map { DiagramLayout.Point(x: 2, y: $0) }
        #expect(layout.paths == [Array(column.dropLast()), column.dropFirst().reversed(), loop])
        #expect(layout.owner(at: DiagramLayout.Point(x: 1, y: 1)) == .node(0))
        #expect(layout.owner(at: DiagramLayout.Point(x: 8, y: 7)) == .edge(2))
        #expect(layout.owner(at: DiagramLayout.Point(x: 11, y: 4)) == .edge(1))
        #expect(layout.owner(at: DiagramLayout.Point(x: 0, y: 4)) == nil)
        #expect(layout.owner(at: DiagramLayout.Point(x: -1, y: 99)) == nil)
    }

    @Test func anEmptyGraphIsAnEmptyDrawing() {
        let layout = DiagramLayout(DiagramGraph(nodes: [], edges: []))
        #expect(layout.boxes == [] && layout.paths == [] && layout.crossings == 0)
        #expect(layout.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test(arguments: [
        ("running(request: 1, percent: 20)", "running"), ("idle", "idle"), ("loaded([\"a\"])", "loaded"), ("", ""),
    ])
    func theCaseNameIsTheCanonicalTextUpToTheFirstParenthesis(text: String, name: String) {
        #expect(DiagramGraph.caseName(of: text) == name)
    }

    @Test func longTextsWrapAndWideCharactersAreEscapedSoTheGridLinesUp() {
        let graph = DiagramGraph(nodes: ["completed(file: \"日本.txt\", size: 1234567890)"], edges: [])
        let layout = DiagramLayout(graph, maximumLabelWidth: 20)
        #expect(
            layout.text == """
                ╔══════════════════════╗
                ║   completed(file:    ║
                ║ "\\u{65e5}\\u{672c}.tx ║
                ║      t", size:       ║
                ║     1234567890)      ║
                ╚══════════════════════╝

                """)
        #expect(layout.lines.allSatisfy { $0.count == layout.width })
    }

    enum Light: Hashable {
        case off
        case on(level: Int)
    }

    enum Press: Hashable {
        case toggle
        case brighter(by: Int)
    }

    static func lamp(_ light: Light, _ press: Press) -> Transition<Light, Press> {
        switch (light, press) {
        case (.off, .toggle): .to(.on(level: 1))
        case (.on, .toggle): .to(.off)
        case (.on(let level), .brighter(let step)): level + step <= 3 ? .update(.on(level: level + step)) : .ignore
        case (.off, .brighter): .ignore
        }
    }

    @Test func aStateGraphCollapsesByCaseWithEdgesMergedAndLabelledByEventCase() {
        let graph = StateGraph.explore(from: Light.off, events: [.toggle, .brighter(by: 1)], transition: Self.lamp)
        #expect(
            graph.caseDiagram
                == DiagramGraph(
                    nodes: ["off", "on"],
                    edges: [
                        .init(from: 0, to: 1, label: "toggle"), .init(from: 1, to: 0, label: "toggle"),
                        .init(from: 1, to: 1, label: "brighter"),
                    ]))
        #expect(
            graph.fullDiagram
                == DiagramGraph(
                    nodes: ["off", "on(level: 1)", "on(level: 2)", "on(level: 3)"],
                    edges: [
                        .init(from: 0, to: 1, label: "toggle"), .init(from: 1, to: 0, label: "toggle"),
                        .init(from: 1, to: 2, label: "brighter(by: 1)"), .init(from: 2, to: 0, label: "toggle"),
                        .init(from: 2, to: 3, label: "brighter(by: 1)"), .init(from: 3, to: 0, label: "toggle"),
                    ]))
        let byBrightness = graph.diagram(
            groupingStatesBy: { light in
                switch light {
                case .off, .on(level: 1): "dim"
                case .on: "bright"
                }
            }, labellingEventsBy: { _ in "press" })
        #expect(
            byBrightness
                == DiagramGraph(
                    nodes: ["dim", "bright"],
                    edges: [
                        .init(from: 0, to: 0, label: "press"), .init(from: 0, to: 1, label: "press"),
                        .init(from: 1, to: 0, label: "press"), .init(from: 1, to: 1, label: "press"),
                    ]))
        #expect(graph.textDiagram(charset: .ascii) == DiagramLayout(graph.fullDiagram, charset: .ascii).text)
    }
}
