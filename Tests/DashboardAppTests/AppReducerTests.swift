import DashboardApp
import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI
import Testing

/// Every key of the dashboard through the keymap and the reducer: the whole state and the whole list of
/// effects that come out.
@Suite struct AppReducerTests {
    typealias F = DashboardFixtures

    /// What pressing `key` in `state` does: nil when the key maps to no action, else the new state and effects.
    static func press(_ key: Key, in state: AppState) -> (state: AppState, effects: [AppEffect])? {
        guard let action = Keymap.action(for: key, in: state, size: DashboardFixtures.size) else { return nil }
        var next = state
        let effects = AppReducer.reduce(&next, action)
        return (next, effects)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var key: Key
        var before: AppState
        var after: AppState
        var effects: [AppEffect]
        var testDescription: String { name }

        /// A key that moves the selection: no effect.
        static func moves(_ name: String, _ key: Key, from: Int, to: Int) -> Case {
            Case(name: name, key: key, before: F.app(selected: from), after: F.app(selected: to), effects: [])
        }

        /// A key on the selected row that only asks its machine: the state stays, the events go to the row.
        static func asks(_ name: String, _ key: Key, row: Int, _ events: [TransferEvent]) -> Case {
            let state = F.app(selected: row)
            return Case(
                name: name, key: key, before: state, after: state, effects: [.transfers(.send(row: row, events))])
        }
    }

    static func selecting(_ row: Int, _ body: (inout AppState) -> Void = { _ in }) -> AppState {
        var state = F.app(selected: row)
        body(&state)
        return state
    }

    static let cases: [Case] = {
        let idle = F.row("idle")
        let running = F.row("running")
        let paused = F.row("paused")
        let completed = F.row("completed")
        let failed = F.row("failed")
        var cases: [Case] = [
            .moves("↓ selects the next row", .down, from: 0, to: 1),
            .moves("j selects the next row", .character("j"), from: 1, to: 2),
            .moves("↓ stops at the last row", .down, from: 4, to: 4),
            .moves("↑ selects the previous row", .up, from: 2, to: 1),
            .moves("k selects the previous row", .character("k"), from: 1, to: 0),
            .moves("↑ stops at the first row", .up, from: 0, to: 0),
            .asks("s starts an idle transfer", .character("s"), row: idle, [.start]),
            .asks("s starts a completed transfer again", .character("s"), row: completed, [.start]),
            .asks("s starts a failed transfer afresh", .character("s"), row: failed, [.start]),
            .asks("s while running (the machine refuses it)", .character("s"), row: running, [.start]),
            .asks("s while paused (the machine refuses it)", .character("s"), row: paused, [.start]),
            .asks("space pauses a running transfer", .character(" "), row: running, [.pause, .resume]),
            .asks("p pauses a running transfer", .character("p"), row: running, [.pause, .resume]),
            .asks("space resumes a paused transfer", .character(" "), row: paused, [.pause, .resume]),
            .asks("p resumes a paused transfer", .character("p"), row: paused, [.pause, .resume]),
            .asks("p when completed (the machine refuses it)", .character("p"), row: completed, [.pause, .resume]),
            .asks("p when idle (the machine refuses it)", .character("p"), row: idle, [.pause, .resume]),
            .asks("c cancels a running transfer", .character("c"), row: running, [.cancel]),
            .asks("c cancels a paused transfer", .character("c"), row: paused, [.cancel]),
            .asks("c when failed (the machine refuses it)", .character("c"), row: failed, [.cancel]),
            .asks("r retries a failed transfer", .character("r"), row: failed, [.retry]),
            .asks("r while running (the machine refuses it)", .character("r"), row: running, [.retry]),
            Case(
                name: "f arms a failure for the next outcome", key: .character("f"), before: F.app(selected: running),
                after: F.app(selected: running), effects: [.transfers(.failNextOutcome(row: running))]),
            Case(
                name: "? opens the help overlay", key: .character("?"), before: F.app(),
                after: F.app(overlay: .help), effects: []),
            Case(
                name: "Esc closes the help overlay", key: .escape, before: F.app(overlay: .help), after: F.app(),
                effects: []),
            Case(
                name: "? closes the help overlay too", key: .character("?"), before: F.app(overlay: .help),
                after: F.app(), effects: []),
            Case(
                name: "q quits", key: .character("q"), before: F.app(),
                after: selecting(0) { $0.exit = .quit }, effects: []),
            Case(
                name: "q quits from the overlay", key: .character("q"), before: F.app(overlay: .help),
                after: {
                    var state = F.app(overlay: .help)
                    state.exit = .quit
                    return state
                }(), effects: []),
            Case(
                name: "Ctrl-C quits as interrupted", key: .controlC, before: F.app(),
                after: selecting(0) { $0.exit = .interrupted }, effects: []),
        ]
        cases.sort { $0.name < $1.name }
        return cases
    }()

    @Test(arguments: cases)
    func aKeyGivesTheWholeStateAndEffects(_ testCase: Case) throws {
        let result = try #require(Self.press(testCase.key, in: testCase.before))
        #expect(result.state == testCase.after)
        #expect(result.effects == testCase.effects)
    }

    /// Keys that mean nothing in a state: no action at all, so no frame and no effect.
    @Test(arguments: [
        ("Esc without an overlay", Key.escape, F.app()),
        ("1 on the screen already shown", Key.character("1"), F.app()),
        ("s under the help overlay", Key.character("s"), F.app(selected: F.row("idle"), overlay: .help)),
        ("an unbound letter", Key.character("x"), F.app()),
        ("a resize", Key.resize, F.app()),
        ("f when a failure is already armed", Key.character("f"), F.app(selected: 1, failing: [1])),
    ])
    func aKeyWithNoMeaningMapsToNoAction(_ name: String, key: Key, state: AppState) {
        #expect(Keymap.action(for: key, in: state, size: DashboardFixtures.size) == nil, "\(name)")
    }

    @Test func tabAndShiftTabCycleThroughEveryScreen() {
        #expect(Screen.allCases.map { $0.next() } == [.upload, .load, .graph, .history, .transfers])
        #expect(Screen.allCases.map { $0.previous() } == [.history, .transfers, .upload, .load, .graph])
        for screen in Screen.allCases {
            var state = F.app()
            let key = Key.character(Character(String(screen.rawValue)))
            if screen != .transfers {
                #expect(Keymap.action(for: key, in: state, size: DashboardFixtures.size) == .select(screen))
            }
            #expect(AppReducer.reduce(&state, .select(screen)) == [])
            #expect(state.screen == screen)
        }
    }

    @Test func aMachineSnapshotReplacesItsRowsModelOnly() {
        var state = F.app(selected: 2)
        let model = TransferModel(phase: .running(request: 1, percent: 5), lastRequest: 1)
        let effects = AppReducer.reduce(&state, .transfers(.machineChanged(row: 0, model)))
        var expected = F.app(selected: 2)
        expected.transfers.rows[0].model = model
        #expect(state == expected)
        #expect(effects == [])
        #expect(state.transfers.rows[0].stateText == "running(request: 1, percent: 5)")
    }

    @Test func aWorkerSnapshotReplacesItsRowsStatusOnly() {
        var state = F.app()
        let status = TransferDriverStatus(failsNextOutcome: true)
        let effects = AppReducer.reduce(&state, .transfers(.driverStatusChanged(row: 4, status)))
        var expected = F.app()
        expected.transfers.rows[4].driverStatus = status
        #expect(state == expected)
        #expect(effects == [])
    }

    /// Before the fix stale counts came through a reporter side channel; now the machine's records count.
    @Test(.timeLimit(.minutes(1))) func staleCountsComeFromTheMachinesRecords() async {
        let machine = TransferMachine()
        var senders = machine.engine.workSenders(where: { $0.phase.activeRequest != nil }).makeAsyncIterator()
        machine.send(.start)
        let sender = await senders.next()
        machine.send(.cancel)
        sender?.send(.progress(request: 1, percent: 5))
        var state = F.app()
        let effects = AppReducer.reduce(&state, .transfers(.recordsChanged(row: 1, machine.engine.firstBatch)))
        var others = state
        others.transfers.rows.remove(at: 1)
        var expected = F.app()
        expected.transfers.rows.remove(at: 1)
        #expect(others == expected)
        #expect(state.transfers.rows[1].tally == RecordTally(lastSequence: 3, stale: 1))
        #expect(effects == [])
        #expect(state.transfers.staleEvents == 1)
    }

    /// The open detail pane keeps the selected machine's newest records, which only it follows: a row keeps none
    /// (before, every row kept its six newest, about 1 KB a row of a 10,000-file copy dashboard). A batch for
    /// another row, or for a closed pane, changes nothing; a new selection starts the pane empty.
    @Test func theOpenDetailPaneAloneKeepsTheSelectedMachinesNewestRecords() {
        let machine = TransferMachine(label: "backup.img")
        for event in [TransferEvent.start] + (1...7).map({ .progress(request: 1, percent: $0 * 10) }) {
            _ = machine.apply(event)
        }
        let batch = machine.engine.firstBatch
        machine.engine.stop()
        var state = F.app(selected: 1)
        _ = AppReducer.reduce(&state, .transfers(.detailRecorded(row: 1, batch)))
        #expect(state == F.app(selected: 1))
        _ = AppReducer.reduce(&state, .transfers(.toggleDetail))
        _ = AppReducer.reduce(&state, .transfers(.detailRecorded(row: 2, batch)))
        _ = AppReducer.reduce(&state, .transfers(.detailRecorded(row: 1, batch)))
        _ = AppReducer.reduce(&state, .transfers(.detailRecorded(row: 1, batch)))
        var expected = F.app(selected: 1)
        expected.transfers.detail = TransferDetail(records: Array(machine.engine.history.suffix(6)))
        #expect(state == expected)
        #expect(
            state.transfers.detail?.rows(machine: "backup.img")
                == HistoryRow.rows(machine: "backup.img", history: Array(machine.engine.history.suffix(6))))
        _ = AppReducer.reduce(&state, .transfers(.selectNext))
        expected = F.app(selected: 2)
        expected.transfers.detail = TransferDetail()
        #expect(state == expected)
    }

    @Test func aSnapshotForARowThatDoesNotExistIsDropped() {
        var state = F.app()
        #expect(AppReducer.reduce(&state, .transfers(.machineChanged(row: 9, F.running))) == [])
        #expect(AppReducer.reduce(&state, .transfers(.driverStatusChanged(row: -1, TransferDriverStatus()))) == [])
        #expect(state == F.app())
    }

    /// The help bar offers exactly the keys that produce an effect for the selected transfer.
    @Test(arguments: DashboardFixtures.everyPhase.map(\.name))
    func theHelpBarOffersOnlyWhatApplies(phase: String) {
        let state = F.screen(selected: F.row(phase))
        let expected: [String: [KeyHelp]] = [
            "idle": [KeyHelp("↑↓", "select"), KeyHelp("s", "start"), KeyHelp("f", "fail next")],
            "running": [
                KeyHelp("↑↓", "select"), KeyHelp("p", "pause"), KeyHelp("c", "cancel"), KeyHelp("f", "fail next"),
            ],
            "paused": [
                KeyHelp("↑↓", "select"), KeyHelp("p", "resume"), KeyHelp("c", "cancel"), KeyHelp("f", "fail next"),
            ],
            "completed": [KeyHelp("↑↓", "select"), KeyHelp("s", "start"), KeyHelp("f", "fail next")],
            "failed": [
                KeyHelp("↑↓", "select"), KeyHelp("r", "retry"), KeyHelp("s", "start"), KeyHelp("f", "fail next"),
            ],
        ]
        let always = [KeyHelp("enter", "details")]
        #expect(TransfersFeature.bindings.barHelp(in: state) == expected[phase].map { $0 + always })
        let offered = Set(TransfersFeature.bindings.barHelp(in: state).map(\.key))
        let letters: [(String, Key)] = [
            ("s", .character("s")), ("p", .character("p")), ("c", .character("c")), ("r", .character("r")),
            ("f", .character("f")),
        ]
        for (name, key) in letters {
            var copy = state
            let action = TransfersFeature.bindings.action(for: key, in: state)
            let effects = action.map { TransfersFeature.reduce(&copy, $0) } ?? []
            // What reaches the machine: an intent's event as the runtime resolves it against the same model.
            let reaching = effects.filter { effect in
                switch effect {
                case .send(_, let events):
                    TransfersRuntime.event(of: events, at: state.rows[state.selected].model) != nil
                case .sendAll: true
                case .failNextOutcome: true
                }
            }
            #expect(offered.contains(name) == !reaching.isEmpty, "\(name) in \(phase)")
        }
    }

    /// One rulebook: over every transfer model the transition function reaches, a key's intent reaches the
    /// runtime, which sends exactly the first of its events that the function applies, and nothing when none
    /// does.
    @Test func everyKeySendsOnlyWhatTheTransitionFunctionApplies() {
        let events: [TransferEvent] = [
            .start, .pause, .resume, .cancel, .retry, .progress(request: 1, percent: 50),
            .failed(request: 1, message: "offline"), .succeeded(request: 1, file: "f"),
        ]
        let graph = StateGraph.explore(
            from: TransferModel.initial, events: events, transition: TransferModel.transition)
        let keys: [(TransfersScreenAction, [TransferEvent])] = [
            (.start, [.start]), (.togglePause, [.pause, .resume]), (.cancel, [.cancel]), (.retry, [.retry]),
        ]
        for model in graph.states {
            for (action, candidates) in keys {
                var state = TransfersScreenState(rows: [TransferRow(name: "a", model: model)])
                #expect(TransfersFeature.reduce(&state, action) == [.send(row: 0, candidates)], "\(action)")
                let applying = candidates.first {
                    switch TransferModel.transition(model, $0) {
                    case .to, .update: true
                    case .stay, .ignore, .invalid, .postpone: false
                    }
                }
                #expect(TransfersRuntime.event(of: candidates, at: model) == applying, "\(action) at \(model)")
            }
        }
    }
}
