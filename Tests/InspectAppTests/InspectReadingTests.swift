import DashboardApp
import InspectApp
import SeedModels
import StateMachineDiagrams
import StateMachineInspector
import StateMachineKit
import TerminalUI
import TerminalUITesting
import Testing

/// `statetui inspect` reads a program's states as the dashboard does: in words where a reading knows the type,
/// canonical text cut so the case and its figures stay otherwise, a learned graph collapsed by case, and the
/// Machines list filtered and sorted like every list. `SNAPSHOT_UPDATE=1` rewrites the goldens.
@Suite struct InspectReadingTests {
    /// A copy's transfer as `statetui copy --inspectable` sends it: through a hundred percents to completion.
    static var copySession: [String] {
        func model(_ phase: String) -> String { "TransferModel(phase: \(phase), lastRequest: 1)" }
        var lines = [
            #"{"machines":2,"pid":4242,"program":"statetui-copy","started":"2026-11-30T20:00:00Z","type":"hello","version":1}"#,
            #"{"id":1,"label":"one.bin","sequence":0,"state":"\#(model("idle"))","type":"machine","visit":1}"#,
            #"{"id":2,"label":"two.bin","sequence":0,"state":"\#(model("idle"))","type":"machine","visit":1}"#,
        ]
        var before = model("idle")
        for percent in 0...100 {
            let after = model("running(request: 1, percent: \(percent))")
            let event = percent == 0 ? "start" : "progress(\(percent))"
            let outcome = percent == 0 ? "moved" : "updated"
            lines.append(
                #"{"machine":1,"sequence":\#(percent + 1),"visit":2,"before":"\#(before)","event":"\#(event)","outcome":"\#(outcome)","after":"\#(after)","type":"record"}"#
            )
            lines.append(#"{"machine":1,"state":"\#(after)","visit":2,"type":"state"}"#)
            before = after
        }
        let done = model(#"completed(file: \"/d/one.bin\")"#)
        lines.append(
            #"{"machine":1,"sequence":102,"visit":3,"before":"\#(before)","event":"succeeded","outcome":"moved","after":"\#(done)","type":"record"}"#
        )
        lines.append(#"{"machine":1,"state":"\#(done)","visit":3,"type":"state"}"#)
        return lines
    }

    static func state(then actions: [InspectScreenAction] = []) throws -> InspectScreenState {
        var state = InspectScreenState(socketPath: "/run/user/1000/statetui/statetui-copy.4242.sock")
        for line in copySession { _ = InspectFeature.reduce(&state, .received(try InspectorMessage(line: line))) }
        for action in actions { _ = InspectFeature.reduce(&state, action) }
        return state
    }

    @Test(arguments: [
        (
            "TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)", "one.bin",
            StatePresentation(.active, "running · 20% · request #1") as StatePresentation?
        ),
        ("uploading(upload: 1, progress: 0.5)", "upload", StatePresentation(.active, "uploading · 50%")),
        ("idle", "upload", StatePresentation(.idle, "idle")),
        ("loaded([\"a\", \"b\"])", "load", StatePresentation(.done, "loaded · 2 items")),
        ("on", "lamp", nil),
        ("TransferModel(phase: nonsense)", "one.bin", nil),
    ])
    func statesReadInWordsWhereAReadingKnowsThem(text: String, label: String, words: StatePresentation?) {
        #expect(StateReadings.standard.presentation(of: text, label: label) == words)
    }

    @Test func aProgramRegistersAReadingForItsOwnType() {
        var readings = StateReadings()
        #expect(readings.presentation(of: "Order(status: paid)", label: "order") == nil)
        readings.register(type: "Order") { value in
            guard case .call(_, let arguments) = value, let status = arguments.first?.value else { return nil }
            return StatePresentation(.active, "order \(status)")
        }
        #expect(
            readings.presentation(of: "Order(status: paid)", label: "order") == StatePresentation(.active, "order paid")
        )
    }

    @Test(arguments: [
        (
            "TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)", 80,
            "TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)"
        ),
        (
            "TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)", 40,
            "running(request: 1, percent: 20) …"
        ),
        ("TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)", 20, "running(1, 20) …"),
        ("TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)", 10, "running(1…"),
        ("uploading(upload: 1, progress: 0.5)", 20, "uploading(1, 0.5)"),
        ("paused(request: 1, percent: 40)", 22, "paused(1, 40)"),
        ("paused(request: 1, percent: 40)", 40, "paused(request: 1, percent: 40)"),
        ("not canonical ((", 5, "not …"),
    ])
    func theStateIsCutSoItsCaseAndFiguresStay(text: String, width: Int, fitted: String) {
        #expect(StateReadings.fitted(text, width: width) == fitted)
    }

    @Test func aLearnedGraphCollapsesByCase() throws {
        let state = try Self.state()
        let graph = try #require(state.selectedMachine?.graph)
        #expect(graph.states.count == 103)
        #expect(
            InspectFeature.diagramGraph(graph, byCase: true)
                == DiagramGraph(
                    nodes: ["idle", "running", "completed"],
                    edges: [
                        DiagramGraph.Edge(from: 0, to: 1, label: "start"),
                        DiagramGraph.Edge(from: 1, to: 1, label: "progress"),
                        DiagramGraph.Edge(from: 1, to: 2, label: "succeeded"),
                    ]))
        #expect(InspectFeature.diagramGraph(graph).nodes.count == 103)
    }

    @Test func fTogglesEveryStateAndBackToTheTopLeft() throws {
        var expected = try Self.state(then: [.show(.graph)])
        let toggled = try Self.state(then: [.show(.graph), .pan(rows: 2, columns: 4), .toggleFullGraph])
        expected.showsFullGraph = true
        #expect(toggled == expected)
    }

    @Test func theMachinesListFiltersSortsAndMovesThroughWhatItShows() throws {
        var state = try Self.state()
        for key in [Key.character("/"), .character("t"), .character("w"), .character("o"), .enter] {
            let action = try #require(InspectFeature.keymap(key, state))
            _ = InspectFeature.reduce(&state, action)
        }
        #expect(state.query == ListQuery(filter: "two"))
        #expect(state.shownMachines.map(\.label) == ["two.bin"])
        #expect(state.machine == 2)
        _ = InspectFeature.reduce(&state, .list(.clearFilter))
        _ = InspectFeature.reduce(&state, .list(.cycleSort))
        _ = InspectFeature.reduce(&state, .list(.cycleSort))
        #expect(state.query == ListQuery(sortColumn: 1))
        // By state in words: "completed · …" before "idle".
        #expect(state.shownMachines.map(\.label) == ["one.bin", "two.bin"])
        _ = InspectFeature.reduce(&state, .moveCursor(.top, rows: 10))
        #expect(state.machine == 1)
        _ = InspectFeature.reduce(&state, .moveMachine(1))
        #expect(state.machine == 2)
    }

    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

    @Test(arguments: InspectTab.allCases, sizes)
    func aCopysScreensReadInWords(tab: InspectTab, size: Size) throws {
        let state = try Self.state(then: [.show(tab)])
        assertSnapshot(
            InspectFeature.render(state, size: size), named: "inspect-copy-\(tab.title.lowercased())-\(size)")
    }

    @Test func vShowsTheCanonicalTextCutSoTheCaseStays() throws {
        let state = try Self.state(then: [.toggleStateText])
        assertSnapshot(
            InspectFeature.render(state, size: Size(width: 80, height: 24)), named: "inspect-copy-canonical-80x24")
    }
}

/// `statetui inspect` takes the `[keys]` of the configuration file, as the dashboard does.
@Suite struct InspectKeysTests {
    @Test func aConfiguredKeyReplacesTheDefaultOnEveryInspectScreen() {
        var state = InspectScreenState(socketPath: "s", tab: .graph)
        state.keys = KeyOverrides(["next_machine": [.character("n")], "left": [.character("a")]])
        #expect(InspectFeature.keymap(.character("n"), state) == .moveMachine(1))
        #expect(InspectFeature.keymap(.character("]"), state) == nil)
        #expect(InspectFeature.keymap(.character("a"), state) == .pan(rows: 0, columns: -InspectFeature.panStep))
        #expect(InspectFeature.keymap(.left, state) == nil)
        #expect(InspectFeature.keys(state).contains(KeyHelp("n", "machine")))
        state.tab = .history
        #expect(InspectFeature.keymap(.character("n"), state) == .moveMachine(1))
    }
}

/// While the Machines filter is typed, every printable key goes into it and the bar offers keeping or clearing it.
@Suite struct InspectFilterTypingTests {
    @Test func theBarOffersKeepingAndClearingAloneAndQGoesIntoTheFilter() throws {
        var state = try InspectReadingTests.state(then: [.list(.beginFilter)])
        #expect(InspectFeature.keys(state) == [KeyHelp("enter", "keep"), KeyHelp("esc", "clear filter")])
        #expect(InspectFeature.keymap(.character("q"), state) == .list(.input("q")))
        #expect(InspectFeature.keymap(.controlC, state) == .interrupt)
        _ = InspectFeature.reduce(&state, .list(.clearFilter))
        #expect(InspectFeature.keymap(.character("q"), state) == .quit)
    }
}
