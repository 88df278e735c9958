/// The dashboard's only place where state changes: app-wide actions here, screen actions handed to their
/// feature's reducer with the feature's effects wrapped back into ``AppEffect``.
public enum AppReducer {
    /// Applies `action` to `state`; returns the effects to run, as values.
    public static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .transfers(let action):
            return TransfersFeature.reduce(&state.transfers, action).map(AppEffect.transfers)
        case .select(let screen):
            if screen.isAvailable { state.screen = screen }
            return []
        case .nextScreen:
            state.screen = state.screen.next
            return []
        case .previousScreen:
            state.screen = state.screen.previous
            return []
        case .showHelp:
            state.overlay = .help
            return []
        case .closeOverlay:
            state.overlay = nil
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
