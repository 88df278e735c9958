import StateMachineDiagrams
import StateMachineKit
import StateMachineTesting
import Support
import Testing

/// Random graphs of up to 30 states, self-loops, parallel edges and cycles included, laid out as text: the
/// drawing must always be sound, whatever it looks like.
@Suite struct DiagramLayoutPropertyTests {
    /// One seed per graph; the node count runs through 1...30.
    static let seeds = Array(UInt64(0)..<60)

    static func graph(seed: UInt64) -> DiagramGraph {
        var generator = SplitMix64(seed: seed)
        let nodes = Int(seed % 30) + 1
        let density = [0.8, 1.6, 2.4][Int(seed / 30 % 3)]
        return DiagramGraph.random(nodeCount: nodes, edgesPerNode: density, using: &generator)
    }

    @Test(arguments: seeds)
    func boxesNeverOverlapAndEveryPathJoinsItsBoxesOutsideAllBoxes(seed: UInt64) {
        let graph = Self.graph(seed: seed)
        let layout = DiagramLayout(graph, charset: seed % 2 == 0 ? .unicode : .ascii)
        let problems = layout.problems(drawing: graph)
        #expect(problems == [], "seed \(seed):\n\(layout.text)")
    }

    @Test(arguments: seeds.prefix(10))
    func theSameGraphAlwaysGivesTheSameDrawing(seed: UInt64) {
        #expect(DiagramLayout(Self.graph(seed: seed)) == DiagramLayout(Self.graph(seed: seed)))
    }

    @Test func theCheckFindsOverlappingBoxesAndBrokenPaths() {
        let graph = DiagramGraph(nodes: ["a", "b"], edges: [.init(from: 0, to: 1, label: "go")])
        let layout = DiagramLayout(graph)
        #expect(layout.problems(drawing: graph) == [])
        // The same drawing judged against a graph whose edge points the other way: its path now starts beside
        // the wrong box and ends on the other's border.
        let turned = DiagramGraph(nodes: ["a", "b"], edges: [.init(from: 1, to: 0, label: "go")])
        #expect(!layout.problems(drawing: turned).isEmpty)
    }
}
