import DashboardApp
import SeedModels
import TerminalUI
import Testing

/// The `[keys]` vocabulary's names, and a configuration's keys replacing the defaults in the keymap, the help bar
/// and the help overlay. That every name is a real binding in each of its places, statetui inspect's included, is
/// InspectAppTests' `KeyActionPlacesTests`.
@Suite struct KeyActionTests {
    typealias F = DashboardFixtures

    @Test func yankAndConfirmQuitShareYButAreRemappedApart() {
        var state = F.app(selected: F.row("running"))
        state.settings.keys = KeyOverrides(["yank": [.character("Y")]])
        #expect(
            Keymap.action(for: .character("Y"), in: state, size: DashboardFixtures.size)
                == .yank(Yank(text: "backup.img", what: "the path of backup.img")))
        #expect(Keymap.action(for: .character("y"), in: state, size: DashboardFixtures.size) == nil)
        state.overlay = .confirmQuit
        #expect(Keymap.action(for: .character("y"), in: state, size: DashboardFixtures.size) == .quitConfirmed)
    }

    @Test func namesAreUniqueAndSnakeCase() {
        let names = KeyAction.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.filter { !$0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } } == [])
    }

    @Test func aRemappedKeyDoesTheActionAndTheOldOneNothing() {
        var state = F.app(selected: F.row("running"))
        state.settings.keys = KeyOverrides(["quit": [.character("x")], "pause": [.character("z")]])
        #expect(Keymap.action(for: .character("x"), in: state, size: DashboardFixtures.size) == .quit)
        #expect(Keymap.action(for: .character("q"), in: state, size: DashboardFixtures.size) == nil)
        #expect(
            Keymap.action(for: .character("z"), in: state, size: DashboardFixtures.size) == .transfers(.togglePause))
        #expect(Keymap.action(for: .character("p"), in: state, size: DashboardFixtures.size) == nil)
        #expect(Keymap.action(for: .character(" "), in: state, size: DashboardFixtures.size) == nil)
    }

    @Test func theHelpBarAndTheOverlayShowTheKeysInForce() {
        var state = F.app(selected: F.row("running"))
        state.settings.keys = KeyOverrides(["quit": [.character("x")], "pause": [.character("z"), .function(2)]])
        let bar = Keymap.barHelp(state)
        #expect(bar.contains(KeyHelp("x", "quit")))
        #expect(bar.contains(KeyHelp("z/f2", "pause")))
        #expect(!bar.contains { $0.key == "q" || $0.key == "p" })
        let overlay = Keymap.bindings(for: .transfers, in: state).allHelp()
        #expect(overlay.contains(KeyHelp("z/f2", "pause / resume")))
        #expect(Keymap.globalHelp(in: state).contains(KeyHelp("x", "quit")))
    }

    @Test func withoutOverridesTheTablesAreTheDefaults() {
        let state = F.app()
        #expect(Keymap.bindings(for: .transfers, in: state).map(\.keys) == Keymap.bindings(for: .transfers).map(\.keys))
        #expect(Keymap.globalHelp(in: state) == Keymap.globalHelp)
    }
}
