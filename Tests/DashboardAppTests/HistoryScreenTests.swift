import SeedModels
import StateMachineKit
import TerminalUI
import TerminalUITesting
import Testing

@testable import DashboardApp

@Suite(.timeLimit(.minutes(1))) struct HistoryScreenTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12)]
    static let machines = DashboardFixtures.names + ["upload", "load"]

    /// An upload history with every kind of record: moves, an update, an ignore, an invalid pause and a
    /// stale progress report from the work of a visit that ended (sent through the sender `whileIn` gave it).
    static func uploadRows() async -> [HistoryRow] {
        let machine = UploadMachine()
        var senders = machine.engine.workSenders(where: \.canPause).makeAsyncIterator()
        machine.apply(.pause)
        machine.apply(.start(upload: 1))
        let sender = await senders.next()
        machine.apply(.progress(upload: 1, fraction: 0.4))
        machine.apply(.pause)
        sender?.send(.progress(upload: 1, fraction: 0.5))
        machine.apply(.resume)
        machine.apply(.complete(upload: 1))
        machine.apply(.complete(upload: 1))
        return HistoryRow.rows(machine: "upload", history: machine.engine.history)
    }

    static func loadRows() -> [HistoryRow] {
        let load = LoadMachine()
        for action in [
            LoadAction.refreshTapped, .succeeded(["a", "b"]), .refreshTapped, .failed("offline"), .succeeded(["late"]),
        ] {
            load.apply(action)
        }
        return HistoryRow.rows(machine: "load", history: load.engine.history)
    }

    /// States read as words in their phase's colour; `v` shows the canonical text instead, and a search finds a
    /// row by either.
    @Test func vTurnsTheStatesIntoTheirCanonicalTextAndBack() async {
        let rows = await Self.uploadRows()
        var state = HistoryScreenState(machines: ["upload"], rows: rows)
        HistoryFeature.reduce(&state, .toggleStateText)
        #expect(state == HistoryScreenState(machines: ["upload"], rows: rows, showsCanonical: true))
        #expect(HistoryFeature.cells(rows[3], canonical: true)[5] == Line("paused(upload: 1, progress: 0.4)"))
        #expect(HistoryFeature.cells(rows[3])[5] == Line("paused · 40%", style: PresentedPhase.paused.style))
        #expect(rows[3].searchText == "  4 2 pause to paused · 40% paused(upload: 1, progress: 0.4)")
        HistoryFeature.reduce(&state, .toggleStateText)
        #expect(state == HistoryScreenState(machines: ["upload"], rows: rows))
    }

    @Test func rowsCarryVerdictsAndReportNames() async {
        let rows = await Self.uploadRows()
        #expect(
            rows.map(\.kind) == [
                .invalid("pause while idle: only an upload in progress can pause"), .decided(.to), .decided(.update),
                .decided(.to), .stale, .decided(.to), .decided(.to), .decided(.ignore),
            ])
        #expect(rows.compactMap(\.reportName) == ["statemachine.invalid", "statemachine.stale_event"])
        #expect(
            rows[4]
                == HistoryRow(
                    machine: "upload", sequence: 5, visit: 3, event: "progress(upload: 1, fraction: 0.5)",
                    kind: .stale, after: "paused(upload: 1, progress: 0.4)",
                    presented: StatePresentation(.paused, "paused · 40%")))
    }

    @Test(arguments: ["upload", "load"], sizes)
    func eachMachineRenders(machine: String, size: Size) async throws {
        let rows = machine == "upload" ? await Self.uploadRows() : Self.loadRows()
        let index = try #require(Self.machines.firstIndex(of: machine))
        let history = HistoryScreenState(machines: Self.machines, selected: index, rows: rows)
        let app = AppState(screen: .history, transfers: DashboardFixtures.screen(), history: history)
        assertSnapshot(AppView.render(app, size: size), named: "history-\(machine)-\(size)")
    }

    @Test(arguments: sizes)
    func scrolledUpShowsOlderRows(size: Size) async {
        var state = HistoryScreenState(machines: Self.machines, selected: 5, rows: await Self.uploadRows())
        HistoryFeature.reduce(&state, .scroll(-3))
        let app = AppState(screen: .history, transfers: DashboardFixtures.screen(), history: state)
        assertSnapshot(AppView.render(app, size: size), named: "history-scrolled-\(size)")
    }

    @Test func scrollingIsBoundedAndSwitchingMachinesWaitsForTheOthersRecords() async {
        let rows = await Self.uploadRows()
        var state = HistoryScreenState(machines: Self.machines, selected: 5, rows: rows)
        HistoryFeature.reduce(&state, .scroll(-100))
        #expect(state == HistoryScreenState(machines: Self.machines, selected: 5, rows: rows, scrolledUp: 7))
        HistoryFeature.reduce(&state, .scroll(100))
        #expect(state.scrolledUp == 0)
        HistoryFeature.reduce(&state, .scroll(-2))
        HistoryFeature.reduce(&state, .nextMachine)
        #expect(state == HistoryScreenState(machines: Self.machines, selected: 6))
        HistoryFeature.reduce(&state, .nextMachine)
        #expect(state.machine == Self.machines[0])
        HistoryFeature.reduce(&state, .previousMachine)
        #expect(state.machine == "load")
    }

    @Test func recordsOfTheSelectedMachineReplaceItsRowsAndOthersAreIgnored() async {
        var state = HistoryScreenState(machines: Self.machines, selected: 5)
        let rows = await Self.uploadRows()
        HistoryFeature.reduce(&state, .recordsChanged(machine: "load", Self.loadRows(), missed: 0))
        #expect(state == HistoryScreenState(machines: Self.machines, selected: 5))
        HistoryFeature.reduce(&state, .recordsChanged(machine: "upload", rows, missed: 0))
        #expect(state == HistoryScreenState(machines: Self.machines, selected: 5, rows: rows))
    }

    /// Before the fix a scrolled-up view slid as records arrived; now the same records stay in view.
    @Test func aScrolledUpViewKeepsItsRecordsWhileNewOnesArrive() async {
        let rows = await Self.uploadRows()
        var state = HistoryScreenState(machines: Self.machines, selected: 5, rows: Array(rows.prefix(6)))
        HistoryFeature.reduce(&state, .scroll(-2))
        HistoryFeature.reduce(&state, .recordsChanged(machine: "upload", rows, missed: 0))
        #expect(state == HistoryScreenState(machines: Self.machines, selected: 5, rows: rows, scrolledUp: 4))
        // At the bottom it follows the newest.
        var following = HistoryScreenState(machines: Self.machines, selected: 5, rows: Array(rows.prefix(6)))
        HistoryFeature.reduce(&following, .recordsChanged(machine: "upload", rows, missed: 0))
        #expect(following == HistoryScreenState(machines: Self.machines, selected: 5, rows: rows))
    }

    /// Before the fix the screen re-read every machine's history on each tick, shown or not; now it
    /// subscribes to the selected machine's records, and only while it is shown.
    @Test func theScreenSubscribesToTheSelectedMachinesRecordsOnlyWhileShown() {
        let environment = DemoSession().environment
        var state = environment.initialState
        func history() -> [String] {
            environment.subscriptions(for: state).map(\.id).filter { $0.hasPrefix("history.") }
        }
        #expect(state.history.machines == Self.machines)
        #expect(history() == [])
        state.screen = .history
        #expect(history() == ["history.photos.tar"])
        HistoryFeature.reduce(&state.history, .previousMachine)
        #expect(history() == ["history.load"])
        state.screen = .upload
        #expect(history() == [])
    }

    @Test(arguments: [
        (Key.character("]"), HistoryScreenAction.nextMachine), (.character("["), .previousMachine),
        (.up, .move(.lineUp, rows: HistoryFeature.page)), (.down, .move(.lineDown, rows: HistoryFeature.page)),
        (.character("g"), .move(.top, rows: HistoryFeature.page)),
        (.character("G"), .move(.bottom, rows: HistoryFeature.page)),
        (.pageUp, .move(.pageUp, rows: HistoryFeature.page)), (.character("/"), .beginSearch),
    ])
    func keys(key: Key, action: HistoryScreenAction) {
        #expect(HistoryFeature.bindings.action(for: key, in: HistoryScreenState()) == action)
    }
}
