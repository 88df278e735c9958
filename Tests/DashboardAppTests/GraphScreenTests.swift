import Foundation
import SeedModels
import StateMachineDiagrams
import StateMachineKit
import TerminalUI
import TerminalUITesting
import Testing

@testable import DashboardApp

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
        written.graph.export.show(.written(path: "/tmp/statetui-load.mmd"))
        assertSnapshot(AppView.render(written, size: size), named: "graph-written-\(size)")
        written.graph.export.show(.failed(path: "/nope/statetui-load.mmd", reason: "no such directory"))
        assertSnapshot(AppView.render(written, size: size), named: "graph-failed-\(size)")
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

    @Test func scrollingStaysWithinTheTableBody() {
        var state = GraphScreenState(model: .load, presentation: .table)
        _ = GraphFeature.reduce(&state, .scroll(-3))
        #expect(state == GraphScreenState(model: .load, offset: 0, presentation: .table))
        _ = GraphFeature.reduce(&state, .scroll(Int.max / 2))
        #expect(
            state == GraphScreenState(model: .load, offset: state.report.bodyLines.count - 1, presentation: .table))
    }

    @Test func panningStaysWithinTheDiagram() {
        var state = GraphScreenState(model: .transfer, full: true)
        _ = GraphFeature.reduce(&state, .scroll(Int.max / 2))
        _ = GraphFeature.reduce(&state, .scrollSideways(Int.max / 2))
        #expect(state.offset == state.layout.height - 1 && state.column == state.layout.width - 1)
        _ = GraphFeature.reduce(&state, .scroll(Int.min / 2))
        _ = GraphFeature.reduce(&state, .scrollSideways(-4))
        #expect(state == GraphScreenState(model: .transfer, column: state.layout.width - 5, full: true))
    }

    @Test func mWritesTheMermaidFileNamedAfterTheModel() {
        var state = GraphScreenState(model: .upload)
        let effects = GraphFeature.reduce(&state, .writeMermaid)
        #expect(effects == [.writeFile(name: "statetui-upload.mmd", text: GraphReport(.upload).mermaid)])
        #expect(state == GraphScreenState(model: .upload))
    }

    @Test func theRunnerWritesTheFileAndReportsThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = Recorded<GraphScreenAction>()
        GraphRuntime(directory: directory.path).run(
            .writeFile(name: "statetui-load.mmd", text: "diagram\n"), send: Send { received.append($0) })
        let path = directory.appendingPathComponent("statetui-load.mmd").path
        #expect(received.values == [.exported(.written(path: path))])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "diagram\n")
    }

    @Test func aFailedWriteIsReportedNotThrown() {
        let received = Recorded<GraphScreenAction>()
        GraphRuntime(directory: "/nonexistent-statetui-dir").run(
            .writeFile(name: "statetui-load.mmd", text: "x"), send: Send { received.append($0) })
        guard case .exported(.failed(let path, let reason))? = received.values.first else {
            Issue.record("expected a failure, got \(received.values)")
            return
        }
        #expect(path == "/nonexistent-statetui-dir/statetui-load.mmd")
        #expect(!reason.isEmpty)
    }

    /// Issue 24: a link left under the export's name is refused, naming the entry; what it points at is
    /// untouched, and a directory by that name is said to be one (no Foundation error number).
    @Test func theRunnerRefusesALinkOrADirectoryInThePlaceOfTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("statetui-transfer.mmd").path, withDestinationPath: "victim.txt")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("statetui-load.mmd"), withIntermediateDirectories: false)
        let received = Recorded<GraphScreenAction>()
        let runtime = GraphRuntime(directory: directory.path)
        runtime.run(.writeFile(name: "statetui-transfer.mmd", text: "graph\n"), send: Send { received.append($0) })
        runtime.run(.writeFile(name: "statetui-load.mmd", text: "graph\n"), send: Send { received.append($0) })
        #expect(
            received.values == [
                .exported(
                    .failed(
                        path: directory.appendingPathComponent("statetui-transfer.mmd").path,
                        reason: "it is a symbolic link, which is not followed")),
                .exported(
                    .failed(
                        path: directory.appendingPathComponent("statetui-load.mmd").path,
                        reason: "it is a directory")),
            ])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test(arguments: [
        (Key.character("]"), GraphScreenAction.nextModel), (.character("["), .previousModel),
        (.right, .scrollSideways(4)), (.character("l"), .scrollSideways(4)), (.character("h"), .scrollSideways(-4)),
        (.left, .scrollSideways(-4)), (.down, .scroll(1)), (.up, .scroll(-1)), (.character("m"), .writeMermaid),
        (.character("L"), .scrollSideways(8)), (.character("H"), .scrollSideways(-8)),
        (.character("g"), .scroll(Int.min / 2)), (.character("G"), .scroll(Int.max / 2)),
        (.character("f"), .toggleFullGraph), (.character("t"), .toggleTable),
    ])
    func keys(key: Key, action: GraphScreenAction) {
        #expect(GraphFeature.bindings.action(for: key, in: GraphScreenState()) == action)
    }

    @Test func everyKeyOfTheTableIsBoundOnceAndListedInTheHelp() {
        let keys = GraphFeature.bindings.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
        #expect(Set(GraphFeature.bindings.allHelp()) == Set(GraphFeature.bindings.map(\.help)))
        #expect(GraphFeature.bindings.allHelp().count == Set(GraphFeature.bindings.allHelp()).count)
        #expect(GraphFeature.bindings.action(for: .character("z"), in: GraphScreenState()) == nil)
    }

    @Test func fSwitchesBetweenTheCollapsedAndTheFullGraphAndTBetweenDiagramAndTable() {
        var state = GraphScreenState(model: .upload, offset: 3, column: 4)
        #expect(GraphFeature.reduce(&state, .toggleFullGraph) == [])
        #expect(state == GraphScreenState(model: .upload, full: true))
        #expect(state.layout == DiagramLayout(ScreenModel.upload.diagram.full))
        _ = GraphFeature.reduce(&state, .toggleTable)
        #expect(state == GraphScreenState(model: .upload, full: true, presentation: .table))
        _ = GraphFeature.reduce(&state, .toggleTable)
        _ = GraphFeature.reduce(&state, .toggleFullGraph)
        #expect(state == GraphScreenState(model: .upload))
    }

    @Test func aTrailRemembersThePreviousStateOfTheSameMachineOnly() {
        var trail = LiveTrail<UploadState>()
        trail.observe(.idle, from: "upload")
        trail.observe(.idle, from: "upload")
        trail.observe(.uploading(upload: 1, progress: 0.5), from: "upload")
        #expect(trail == LiveTrail(source: "upload", current: .uploading(upload: 1, progress: 0.5), previous: .idle))
        trail.observe(.paused(upload: 1, progress: 0.5), from: "other")
        #expect(trail == LiveTrail(source: "other", current: .paused(upload: 1, progress: 0.5)))
    }

    @Test func theAppFollowsTheLiveMachinesWhateverActionDeliversTheirStates() {
        var app = AppState(screen: .graph, transfers: DashboardFixtures.screen(selected: 1))
        _ = AppReducer.reduce(&app, .upload(.uploadChanged(.uploading(upload: 1, progress: 0))))
        _ = AppReducer.reduce(&app, .upload(.uploadChanged(.paused(upload: 1, progress: 0))))
        #expect(
            app.graph.uploadTrail
                == LiveTrail(
                    source: "upload", current: .paused(upload: 1, progress: 0),
                    previous: .uploading(upload: 1, progress: 0)))
        #expect(app.graph.transferTrail == LiveTrail(source: "backup.img", current: DashboardFixtures.running))
        _ = AppReducer.reduce(&app, .graph(.nextModel))
        #expect(app.graph.model == .upload)
        #expect(
            app.graph.liveMarks.current
                == LiveMark(
                    name: "paused(upload: 1, progress: 0.0)", caseName: "paused",
                    text: "paused(upload: 1, progress: 0.0)"))
        let collapsed = ScreenModel.upload.diagram.collapsed
        let uploading = collapsed.node(named: "uploading") ?? -1
        let paused = collapsed.node(named: "paused") ?? -1
        #expect(app.graph.lastTransitionEdges == collapsed.edges(from: uploading, to: paused))
        #expect(app.graph.lastTransitionEdges.count == 1)
    }

    /// The screen as text plus a mask of the styles that carry meaning: `#` the live state, `*` the last
    /// transition, `.` anything else.
    static func styleMask(_ canvas: Canvas) -> String {
        (0..<canvas.size.height).map { y in
            String(
                (0..<canvas.size.width).map { x -> Character in
                    let style = canvas[x, y].style
                    return style == GraphFeature.liveStyle ? "#" : style == GraphFeature.lastEdgeStyle ? "*" : "."
                })
        }.joined(separator: "\n") + "\n"
    }

    @Test(arguments: ScreenModel.allCases)
    func theLiveStateIsLitAndTheLastTransitionHighlighted(model: ScreenModel) {
        var app = AppState(screen: .graph, transfers: DashboardFixtures.screen(selected: 1))
        _ = AppReducer.reduce(&app, .upload(.uploadChanged(.uploading(upload: 1, progress: 0))))
        _ = AppReducer.reduce(&app, .upload(.uploadChanged(.paused(upload: 1, progress: 0))))
        _ = AppReducer.reduce(&app, .load(.loadChanged(.loading(previous: nil))))
        _ = AppReducer.reduce(&app, .transfers(.selectNext))
        _ = AppReducer.reduce(&app, .transfers(.machineChanged(row: 2, DashboardFixtures.running)))
        app.graph.select(model)
        let canvas = AppView.render(app, size: Size(width: 100, height: 30))
        assertSnapshot(canvas, named: "graph-live-\(model.rawValue)-100x30")
        assertSnapshot(text: Self.styleMask(canvas), named: "graph-live-\(model.rawValue)-100x30.styles")
    }

    /// Under a locale that is not UTF-8 every glyph the screens draw has an ASCII stand-in: boxes, the
    /// initial state's double border and the arrowheads of a diagram, whole or by case, as well as the other
    /// screens and the help overlay; none falls back to `?`.
    @Test(arguments: [false, true])
    func everyGlyphOfEveryScreenHasAnASCIIStandIn(full: Bool) {
        var drawn = Set<String>()
        // Each diagram is laid out once; only the Graph screen shows a different picture per model.
        let graphs = ScreenModel.allCases.map { GraphScreenState(model: $0, full: full) }
        for screen in Screen.allCases {
            for overlay in [nil, Overlay.help] {
                for graph in screen == .graph ? graphs : [graphs[0]] {
                    let app = AppState(
                        screen: screen, transfers: DashboardFixtures.screen(), graph: graph, overlay: overlay)
                    drawn.formUnion(AppView.render(app, size: Size(width: 240, height: 90)).cells.map(\.grapheme))
                }
            }
        }
        let missing = drawn.filter { !$0.utf8.allSatisfy { $0 < 0x80 } && GlyphSet.asciiStandIns[$0] == nil }
        #expect(missing.sorted() == [])
    }

    @Test func aDiagramTooBigForTheScreenSaysSoAndOffersTheTable() {
        let app = AppState(
            screen: .graph, transfers: DashboardFixtures.screen(), graph: GraphScreenState(model: .transfer, full: true)
        )
        assertSnapshot(AppView.render(app, size: Size(width: 80, height: 24)), named: "graph-transfer-full-80x24")
    }
}
