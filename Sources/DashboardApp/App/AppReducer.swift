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

    private static func reduceAction(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .transfers(let action):
            return TransfersFeature.reduce(&state.transfers, action).map(AppEffect.transfers)
        case .upload(let action):
            return UploadFeature.reduce(&state.upload, action).map(AppEffect.upload)
        case .load(let action):
            return LoadFeature.reduce(&state.load, action).map(AppEffect.load)
        case .graph(let action):
            return GraphFeature.reduce(&state.graph, action).map(AppEffect.graph)
        case .history(let action):
            HistoryFeature.reduce(&state.history, action)
            return []
        case .select(let screen):
            state.screen = screen
            return []
        case .nextScreen:
            state.screen = state.screen.next
            return []
        case .previousScreen:
            state.screen = state.screen.previous
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
            state.exit = .quit
            return []
        case .interrupt:
            state.exit = .interrupted
            return []
        }
    }
}
