import TerminalUI

/// What a key means: the app-wide table first (quit, help, screens), then the active screen's table. While an
/// overlay is open it takes every key: only `Esc`, `?` and quitting do anything.
package enum Keymap {
    /// The action for `key` in `state`, nil when the key does nothing there.
    package static func action(for key: Key, in state: AppState) -> AppAction? {
        // A search pattern being typed takes every printable key, the app-wide `q`, `?` and digits included.
        if state.overlay == nil, state.screen == .history, let typed = HistoryFeature.textInput(key, state.history) {
            return .history(typed)
        }
        if let action = globalBindings.action(for: key, in: state) { return action }
        guard state.overlay == nil else { return nil }
        return bindings(for: state.screen).action(for: key, in: state)
    }

    /// A screen's key table, lifted to the app's state and actions: the one place that knows which feature
    /// draws which screen's keys.
    package static func bindings(for screen: Screen) -> [KeyBinding<AppState, AppAction>] {
        switch screen {
        case .transfers: TransfersFeature.bindings.map { $0.scoped(state: \.transfers, action: AppAction.transfers) }
        case .upload: UploadFeature.bindings.map { $0.scoped(state: \.upload, action: AppAction.upload) }
        case .load: LoadFeature.bindings.map { $0.scoped(state: \.load, action: AppAction.load) }
        case .graph: GraphFeature.bindings.map { $0.scoped(state: \.graph, action: AppAction.graph) }
        case .history: HistoryFeature.bindings.map { $0.scoped(state: \.history, action: AppAction.history) }
        }
    }

    /// The keys the help bar offers in `state`: the active screen's that apply now (none under an overlay),
    /// then the app-wide ones.
    package static func barHelp(_ state: AppState) -> [KeyHelp] {
        let screen = state.overlay == nil ? bindings(for: state.screen).barHelp(in: state) : []
        return screen + globalBindings.barHelp(in: state)
    }

    private static func noOverlay(_ state: AppState) -> Bool { state.overlay == nil }
    private static func notInBar(_ state: AppState) -> KeyHelp? { nil }

    /// The app-wide keys, in the help overlay's order. Ctrl-Z is the store's suspend key and is listed in
    /// ``suspendHelp``.
    package static let globalBindings: [KeyBinding<AppState, AppAction>] =
        Screen.allCases.map { screen in
            KeyBinding(
                [.character(Character(String(screen.rawValue)))], .select(screen),
                help: KeyHelp("\(Screen.allCases[0].rawValue)–\(Screen.allCases.count)", "show a screen"),
                bar: notInBar, applies: { noOverlay($0) && screen != $0.screen })
        } + [
            KeyBinding(
                [.tab], .nextScreen, help: KeyHelp("tab", "next screen"), bar: notInBar,
                applies: { noOverlay($0) && $0.screen.next != $0.screen }),
            KeyBinding(
                [.backTab], .previousScreen, help: KeyHelp("shift-tab", "previous screen"), bar: notInBar,
                applies: { noOverlay($0) && $0.screen.previous != $0.screen }),
            KeyBinding(
                [.character("?")], .showHelp, help: KeyHelp("?", "this help"), bar: { _ in KeyHelp("?", "help") },
                applies: noOverlay),
            KeyBinding(
                [.escape, .character("?")], .closeOverlay, help: KeyHelp("esc", "close this help"),
                bar: { _ in KeyHelp("esc", "close") }, applies: { !noOverlay($0) }),
            KeyBinding([.character("q")], .quit, help: quitHelp, bar: { _ in KeyHelp("q", "quit") }),
            KeyBinding([.controlC], .interrupt, help: quitHelp, bar: notInBar),
        ]

    private static let quitHelp = KeyHelp("q / ctrl-c", "quit")

    /// The suspend key (the store's ``App/suspendKey``, Ctrl-Z), which never reaches the keymap.
    package static let suspendHelp = KeyHelp("ctrl-z", "suspend to the shell")

    /// Every app-wide key, as the help overlay and the documentation list them.
    package static var globalHelp: [KeyHelp] { globalBindings.allHelp() + [suspendHelp] }
}
