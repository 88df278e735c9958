/// The dashboard's only place where state changes: app-wide actions here, screen actions handed to their
/// feature's reducer with the feature's effects wrapped back into ``AppEffect``.
package enum AppReducer {
    /// Applies `action` to `state`; returns the effects to run, as values. While the Graph screen is shown it
    /// then follows the live machines' newest states, whichever action delivered them.
    package static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        let effects = reduceAction(&state, action)
        if state.screen == .graph { GraphFeature.follow(&state.graph, live: GraphLiveStates(state)) }
        return effects
    }

    /// Whether any transfer is running or paused: what the terminal's progress indicator shows.
    static func copiesUnderWay(_ state: AppState) -> Bool {
        TransfersFeature.progress(state.transfers) != .none
    }

    private static func reduceAction(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .transfers, .upload, .load, .graph, .history:
            // A screen's action goes to the screen that registered it (``Screen/feature``).
            for screen in Screen.allCases {
                if let effects = screen.feature.reduce(&state, action) { return effects }
            }
            return []
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
