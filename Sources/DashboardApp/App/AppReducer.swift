import TerminalUI

/// The dashboard's only place where state changes: app-wide actions here, a screen's actions handed to its
/// reducer (``Screen/registry``) with its effects embedded in ``AppEffect``.
package enum AppReducer {
    /// Applies `action` to `state`; returns the effects to run, as values. The screen shown then follows the
    /// rest of the app (Graph lights the live machines' newest states), whichever action delivered them.
    package static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        let effects = reduceAction(&state, action)
        state.screen.registered.follow(&state)
        return effects
    }

    /// What the terminal's progress indicator shows: the first screen's that shows any (the transfers').
    package static func progress(_ state: AppState) -> TerminalProgress {
        Screen.registry.lazy.map { $0.progress(state) }.first { $0 != .none } ?? .none
    }

    /// Whether any transfer is running or paused: what the terminal's progress indicator shows.
    static func copiesUnderWay(_ state: AppState) -> Bool {
        progress(state) != .none
    }

    private static func reduceAction(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .screen(let value):
            return value.screen.registered.reduce(&state, value)
        case .select(let screen):
            if state.screens.contains(screen) { state.screen = screen }
            return []
        case .nextScreen:
            state.screen = state.screen.next(in: state.screens)
            return []
        case .previousScreen:
            state.screen = state.screen.previous(in: state.screens)
            return []
        case .showHelp:
            state.overlay = .help
            state.helpOffset = 0
            return []
        case .closeOverlay:
            state.overlay = nil
            state.helpOffset = 0
            return []
        case .scrollHelp(let line):
            if state.overlay == .help { state.helpOffset = max(0, line) }
            return []
        case .quit:
            if state.confirmsQuit && state.overlay != .confirmQuit && copiesUnderWay(state) {
                state.overlay = .confirmQuit
            } else {
                state.exit = .quit
            }
            return []
        case .quitConfirmed:
            state.exit = .quit
            return []
        case .interrupt:
            state.exit = .interrupted
            return []
        case .yank(let yank):
            state.yank.show(yank)
            return []
        case .yankExpired(let message):
            state.yank.expire(message)
            return []
        }
    }
}
