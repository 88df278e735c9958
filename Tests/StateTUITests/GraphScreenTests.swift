import Foundation
import ScreenStates
import StateTUI
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct GraphScreenTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12)]

    @Test(arguments: ScreenModel.allCases, sizes)
    func eachModelRenders(model: ScreenModel, size: Size) {
        let app = AppState(screen: .graph, transfers: DashboardFixtures.screen(), graph: GraphScreenState(model: model))
        assertSnapshot(AppView.render(app, size: size), named: "graph-\(model.rawValue)-\(size)")
    }

    @Test(arguments: sizes)
    func exportedAndFailedExportsShow(size: Size) {
        var written = AppState(
            screen: .graph, transfers: DashboardFixtures.screen(), graph: GraphScreenState(model: .load))
        written.graph.export = .written(path: "/tmp/statetui-load.mmd")
        assertSnapshot(AppView.render(written, size: size), named: "graph-written-\(size)")
        written.graph.export = .failed(path: "/nope/statetui-load.mmd", reason: "no such directory")
        assertSnapshot(AppView.render(written, size: size), named: "graph-failed-\(size)")
    }

    @Test(arguments: ScreenModel.allCases)
    func theTableIsTheOneStatetuiGraphPrints(model: ScreenModel) {
        #expect(GraphReport(model).table.map { $0 + "\n" }.joined() == model.graph(.table))
        #expect(GraphReport(model).mermaid == model.graph(.mermaid))
    }

    @Test func gCyclesTheModelsAndResetsTheScroll() {
        var state = GraphScreenState(model: .transfer, offset: 5, column: 8)
        #expect(GraphFeature.reduce(&state, .nextModel) == [])
        #expect(state == GraphScreenState(model: .upload))
        _ = GraphFeature.reduce(&state, .nextModel)
        _ = GraphFeature.reduce(&state, .nextModel)
        #expect(state == GraphScreenState(model: .transfer))
        _ = GraphFeature.reduce(&state, .previousModel)
        #expect(state == GraphScreenState(model: .load))
    }

    @Test func scrollingStaysWithinTheBody() {
        var state = GraphScreenState(model: .load)
        _ = GraphFeature.reduce(&state, .scroll(-3))
        #expect(state == GraphScreenState(model: .load, offset: 0))
        _ = GraphFeature.reduce(&state, .scroll(Int.max / 2))
        #expect(state == GraphScreenState(model: .load, offset: state.report.bodyLines.count - 1))
    }

    @Test func mWritesTheMermaidFileNamedAfterTheModel() {
        var state = GraphScreenState(model: .upload)
        let effects = GraphFeature.reduce(&state, .writeMermaid)
        #expect(effects == [.writeFile(name: "statetui-upload.mmd", text: ScreenModel.upload.graph(.mermaid))])
        #expect(state == GraphScreenState(model: .upload))
    }

    @Test func theRunnerWritesTheFileAndReportsThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = Recorded<GraphAction>()
        GraphEffectRunner(directory: directory.path).run(
            .writeFile(name: "statetui-load.mmd", text: "diagram\n"), send: Send { received.append($0) })
        let path = directory.appendingPathComponent("statetui-load.mmd").path
        #expect(received.values == [.exported(.written(path: path))])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "diagram\n")
    }

    @Test func aFailedWriteIsReportedNotThrown() {
        let received = Recorded<GraphAction>()
        GraphEffectRunner(directory: "/nonexistent-statetui-dir").run(
            .writeFile(name: "statetui-load.mmd", text: "x"), send: Send { received.append($0) })
        guard case .exported(.failed(let path, let reason))? = received.values.first else {
            Issue.record("expected a failure, got \(received.values)")
            return
        }
        #expect(path == "/nonexistent-statetui-dir/statetui-load.mmd")
        #expect(!reason.isEmpty)
    }

    @Test(arguments: [
        (Key.character("g"), GraphAction.nextModel), (.right, .nextModel), (.left, .previousModel), (.down, .scroll(1)),
        (.up, .scroll(-1)), (.character("m"), .writeMermaid), (.character("]"), .scrollSideways(8)),
    ])
    func keys(key: Key, action: GraphAction) {
        #expect(GraphFeature.keymap(key, GraphScreenState()) == action)
    }
}
