import TerminalUI

/// What a key means: app-wide keys first (quit, help, screens), then the active screen's own keymap.
/// While an overlay is open it takes every key: only `Esc`, `?` and quitting do anything.
public enum Keymap {
    /// The action for `key` in `state`, nil when the key does nothing there.
    public static func action(for key: Key, in state: AppState) -> AppAction? {
        // A search pattern being typed takes every key but Ctrl-C, `q` and the digits included.
        if state.overlay == nil, state.screen == .history, state.history.isTypingSearch, key != .controlC {
            return screenAction(for: key, in: state)
        }
        if key == .character("q") { return .quit }
        if key == .controlC { return .interrupt }
        if state.overlay != nil {
            return key == .escape || key == .character("?") ? .closeOverlay : nil
        }
        if key == .character("?") { return .showHelp }
        if key == .tab { return state.screen.next == state.screen ? nil : .nextScreen }
        if key == .backTab { return state.screen.previous == state.screen ? nil : .previousScreen }
        if case .character(let character) = key, let number = character.wholeNumberValue,
            let screen = Screen(rawValue: number)
        {
            return screen.isAvailable && screen != state.screen ? .select(screen) : nil
        }
        return screenAction(for: key, in: state)
    }

    /// The action for `key` in `state` drawn at `size`: the keys whose meaning depends on what is drawn (a
    /// page is as tall as the drawn list or pane) resolved against the layout, every other key as
    /// ``action(for:in:)`` maps it.
    public static func pagedAction(for key: Key, in state: AppState, size: Size) -> AppAction? {
        let area = AppView.screenArea(size)
        if state.overlay == nil, state.screen == .transfers, key != .up, key != .down,
            let move = ScrollMove(key: key),
            let offset = TransfersFeature.detailOffset(after: move, state.transfers, in: area)
        {
            return .transfers(.scrollDetail(to: offset))
        }
        let mapped = action(for: key, in: state)
        guard case .history? = mapped else { return mapped }
        return HistoryFeature.keymap(key, state.history, visibleRows: HistoryFeature.visibleRows(in: area))
            .map(AppAction.history)
    }

    /// The active screen's meaning of `key`.
    static func screenAction(for key: Key, in state: AppState) -> AppAction? {
        switch state.screen {
        case .transfers: TransfersFeature.keymap(key, state.transfers).map(AppAction.transfers)
        case .upload: UploadFeature.keymap(key, state.upload).map(AppAction.upload)
        case .load: LoadFeature.keymap(key, state.load).map(AppAction.load)
        case .graph: GraphFeature.keymap(key, state.graph).map(AppAction.graph)
        case .history: HistoryFeature.keymap(key, state.history).map(AppAction.history)
        }
    }

    /// The app-wide keys the help bar always offers, after the screen's own.
    public static let globalHelp = [KeyHelp("?", "help"), KeyHelp("q", "quit")]

    /// Every app-wide key, as the help overlay lists them.
    public static let globalKeys = [
        KeyHelp("1–5", "show a screen"),
        KeyHelp("tab", "next screen"),
        KeyHelp("shift-tab", "previous screen"),
        KeyHelp("?", "this help"),
        KeyHelp("esc", "close this help"),
        KeyHelp("q / ctrl-c", "quit"),
        KeyHelp("ctrl-z", "suspend to the shell"),
    ]
}
