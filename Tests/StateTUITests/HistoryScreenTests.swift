import ScreenStates
import StateMachineKit
import StateTUI
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct HistoryScreenTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12)]

    /// An upload history with every kind of record: moves, an update, an ignore, an invalid pause and a
    /// stale progress report from a visit that ended.
    static func uploadRows() -> [HistoryRow] {
        let machine = UploadMachine()
        machine.apply(.pause)
        let sender = machine.engine.sendAndBind(.start).sender
        machine.apply(.progress(0.4))
        machine.apply(.pause)
        sender.send(.progress(0.5))
        machine.apply(.resume)
        machine.apply(.complete)
        machine.apply(.complete)
        return HistoryRow.rows(machine: "upload", history: machine.engine.history)
    }

    @Test func rowsCarryVerdictsAndReportNames() {
        let rows = Self.uploadRows()
        #expect(
            rows.map(\.kind) == [
                .invalid("pause while idle: only an upload in progress can pause"), .decided(.to), .decided(.update),
                .decided(.to), .stale, .decided(.to), .decided(.to), .decided(.ignore),
            ])
        #expect(rows.compactMap(\.reportName) == ["statemachine.invalid", "statemachine.stale_event"])
        #expect(
            rows[4]
                == HistoryRow(
                    machine: "upload", sequence: 5, visit: 3, event: "progress(0.5)", kind: .stale,
                    after: "paused(progress: 0.4)"))
    }

    @Test(arguments: HistoryScreenState.Machine.allCases, sizes)
    func eachMachineRenders(machine: HistoryScreenState.Machine, size: Size) {
        let load = LoadMachine()
        for action in [
            LoadAction.refreshTapped, .succeeded(["a", "b"]), .refreshTapped, .failed("offline"), .succeeded(["late"]),
        ] {
            load.apply(action)
        }
        let history = HistoryScreenState(
            machine: machine,
            rows: [.upload: Self.uploadRows(), .load: HistoryRow.rows(machine: "load", history: load.engine.history)])
        let app = AppState(screen: .history, transfers: DashboardFixtures.screen(), history: history)
        assertSnapshot(AppView.render(app, size: size), named: "history-\(machine)-\(size)")
    }

    @Test(arguments: sizes)
    func scrolledUpShowsOlderRows(size: Size) {
        var state = HistoryScreenState(machine: .upload, rows: [.upload: Self.uploadRows()])
        _ = HistoryFeature.reduce(&state, .scrollUp(3))
        let app = AppState(screen: .history, transfers: DashboardFixtures.screen(), history: state)
        assertSnapshot(AppView.render(app, size: size), named: "history-scrolled-\(size)")
    }

    @Test func scrollingIsBoundedAndSwitchingMachinesGoesBackToTheNewest() {
        var state = HistoryScreenState(machine: .upload, rows: [.upload: Self.uploadRows()])
        _ = HistoryFeature.reduce(&state, .scrollUp(100))
        #expect(state == HistoryScreenState(machine: .upload, rows: [.upload: Self.uploadRows()], scrolledUp: 7))
        _ = HistoryFeature.reduce(&state, .scrollUp(-100))
        #expect(state.scrolledUp == 0)
        _ = HistoryFeature.reduce(&state, .scrollUp(2))
        _ = HistoryFeature.reduce(&state, .nextMachine)
        #expect(state == HistoryScreenState(machine: .load, rows: [.upload: Self.uploadRows()], scrolledUp: 0))
        _ = HistoryFeature.reduce(&state, .nextMachine)
        #expect(state.machine == .transfers)
        _ = HistoryFeature.reduce(&state, .previousMachine)
        #expect(state.machine == .load)
    }

    @Test func newRecordsReplaceTheMachinesRows() {
        var state = HistoryScreenState()
        let rows = Self.uploadRows()
        #expect(HistoryFeature.reduce(&state, .recordsChanged(.upload, rows)) == [])
        #expect(state == HistoryScreenState(rows: [.upload: rows]))
    }

    @Test(arguments: [
        (Key.character("h"), HistoryAction.nextMachine), (.right, .nextMachine), (.left, .previousMachine),
        (.up, .scrollUp(1)), (.down, .scrollUp(-1)), (.pageUp, .scrollUp(10)),
    ])
    func keys(key: Key, action: HistoryAction) {
        #expect(HistoryFeature.keymap(key, HistoryScreenState()) == action)
    }
}
