import SeedModels
import StateMachineDiagrams
import StateMachineKit
import StateMachineTesting
import Testing

/// The seeds' models drawn as diagrams: collapsed by case they are small enough to read at a glance.
@Suite struct ModelDiagramTests {
    @Test(arguments: ScreenModel.allCases, DiagramCharset.allCases)
    func collapsedDiagramsDrawWithoutCrossingsWithin100By30(model: ScreenModel, charset: DiagramCharset) {
        let graph = model.diagram.collapsed
        let layout = DiagramLayout(graph, charset: charset)
        #expect(layout.crossings == 0, "\(layout.text)")
        #expect(layout.width <= 100 && layout.height <= 30, "\(layout.width)×\(layout.height)\n\(layout.text)")
        #expect(layout.problems(drawing: graph) == [])
    }

    @Test(arguments: ScreenModel.allCases)
    func fullDiagramsHaveNoOverlappingBoxesOrBrokenLines(model: ScreenModel) {
        let graph = model.diagram.full
        #expect(DiagramLayout(graph).problems(drawing: graph) == [])
    }

    @Test func theLoadStateCollapsesToItsFourCasesWithEdgesMergedByEventCase() {
        #expect(
            ScreenModel.load.diagram.collapsed
                == DiagramGraph(
                    nodes: ["idle", "loading", "loaded", "failed"],
                    edges: [
                        .init(from: 0, to: 1, label: "refreshTapped"), .init(from: 1, to: 2, label: "succeeded"),
                        .init(from: 1, to: 3, label: "failed"), .init(from: 2, to: 1, label: "refreshTapped"),
                        .init(from: 3, to: 1, label: "refreshTapped"),
                    ]))
    }

    @Test func theTransferCollapsesByPhaseAndListsEveryEventCaseOnce() {
        let diagram = ScreenModel.transfer.diagram
        #expect(diagram.collapsed.nodes == ["idle", "running", "paused", "completed", "failed"])
        let failedToRunning = diagram.collapsed.edges(from: 4, to: 1).map { diagram.collapsed.edges[$0].label }
        #expect(failedToRunning == ["start, retry"])
        #expect(diagram.full.nodes.count == TransferModel.exploreSamples().states.count)
        let cases = diagram.full.nodes.indices.map { diagram.collapsed.nodes[diagram.caseOfNode[$0]] }
        let expected = TransferModel.exploreSamples().states.map(\.diagramCase)
        #expect(cases == expected)
    }

    @Test func aLiveStateIsFoundInBothDiagrams() {
        let diagram = ScreenModel.transfer.diagram
        let live = TransferModel(phase: .paused(request: 7, percent: 50), lastRequest: 7)
        #expect(live.diagramCase == "paused")
        #expect(diagram.collapsed.node(named: live.diagramCase) == 2)
        #expect(live.diagramName == "TransferModel(phase: paused(request: 2, percent: 50), lastRequest: 2)")
        #expect(diagram.full.node(named: live.diagramName) != nil)
    }
}
