import DashboardApp
import SeedModels
import TerminalUI
import TerminalUITesting
import Testing

/// Issue 17: `q` while real copies run asks first (`statetui copy`); `--no-confirm` quits at once.
@Suite struct ConfirmQuitTests {
    typealias F = DashboardFixtures

    /// The fixture's rows include a running and a paused transfer; `change` is applied last.
    static func copying(confirms: Bool, _ change: (inout AppState) -> Void = { _ in }) -> AppState {
        var state = F.app()
        state.confirmsQuit = confirms
        change(&state)
        return state
    }

    /// Pressed keys through the keymap and reducer, as the store applies them.
    static func press(_ keys: [Key], _ state: inout AppState) {
        for key in keys {
            if let action = Keymap.action(for: key, in: state, size: Size(width: 80, height: 24)) {
                _ = AppReducer.reduce(&state, action)
            }
        }
    }

    @Test func qWhileCopiesRunAsksAndYQuits() {
        var state = Self.copying(confirms: true)
        Self.press([.character("q")], &state)
        let asked = Self.copying(confirms: true) { $0.overlay = .confirmQuit }
        #expect(state == asked)
        #expect(Keymap.barHelp(state) == [KeyHelp("esc", "close"), KeyHelp("y", "quit"), KeyHelp("n", "stay")])
        Self.press([.character("q"), .character("s")], &state)
        #expect(state == asked)
        Self.press([.character("y")], &state)
        #expect(
            state
                == Self.copying(confirms: true) {
                    $0.overlay = .confirmQuit
                    $0.exit = .quit
                })
    }

    @Test(arguments: [Key.character("n"), .escape])
    func nOrEscStays(key: Key) {
        var state = Self.copying(confirms: true)
        Self.press([.character("q"), key], &state)
        #expect(state == Self.copying(confirms: true))
    }

    /// Keys that never ask while copies run: `q` under `--no-confirm` (or in the simulated dashboard, which never
    /// asks) and Ctrl-C always quit at once.
    @Test(arguments: [(false, Key.character("q"), ExitReason.quit), (true, .controlC, .interrupted)])
    func aKeyThatDoesNotAskQuitsAtOnce(confirms: Bool, key: Key, exit: ExitReason) {
        var state = Self.copying(confirms: confirms)
        Self.press([key], &state)
        #expect(state == Self.copying(confirms: confirms) { $0.exit = exit })
    }

    /// Nothing running or paused: nothing to lose, so `q` quits at once even when it would ask.
    @Test func withNothingUnderWayQQuitsAtOnce() {
        let idle = TransfersScreenState(rows: [TransferRow(name: "a", model: TransferModel())])
        var state = AppState(transfers: idle)
        state.confirmsQuit = true
        var quit = state
        quit.exit = .quit
        Self.press([.character("q")], &state)
        #expect(state == quit)
    }

    @Test func theQuestion() {
        var state = Self.copying(confirms: true)
        state.overlay = .confirmQuit
        assertSnapshot(AppView.render(state, size: Size(width: 80, height: 24)), named: "confirm-quit-80x24")
    }
}
