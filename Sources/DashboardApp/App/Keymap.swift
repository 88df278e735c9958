import TerminalUI

/// What a key means: the app-wide table first (quit, help, screens), then the active screen's table. While an
/// overlay is open it takes every key: only `Esc`, `?` and quitting do anything.
package enum Keymap {
    /// The action for `key` in `state` drawn at `size` (the store's one keymap), nil when the key does nothing
    /// there: the bindings whose action depends on the layout get the ``KeyContext`` of the press (the
    /// app-wide ones the whole terminal, the screen's its content area, ``AppView/contentArea(_:)``, inside
    /// the frame). Below ``AppView/minimumSize`` only the message saying so is drawn, so only the keys that quit
    /// act (``whileTooSmall(_:in:size:)``): a key that changed what nobody sees (`S` starting every copy) would act
    /// blind.
    package static func action(for key: Key, in state: AppState, size: Size) -> AppAction? {
        guard size.width >= AppView.minimumSize.width, size.height >= AppView.minimumSize.height else {
            return whileTooSmall(key, in: state, size: size)
        }
        let contexts = (
            global: KeyContext(key: key, size: size, area: Rect(size: size)),
            screen: KeyContext(key: key, size: size, area: AppView.contentArea(size))
        )
        // A text field being typed in (History's search pattern) takes every printable key, the app-wide `q`,
        // `?` and digits included.
        if state.overlay == nil, let typed = state.screen.registered.textInput(key, state) { return typed }
        if let action = globalBindings(in: state).action(for: key, in: state, context: contexts.global) {
            return action
        }
        guard state.overlay == nil else { return nil }
        return bindings(for: state.screen, in: state).action(for: key, in: state, context: contexts.screen)
    }

    /// What `key` does below ``AppView/minimumSize``: only the app-wide keys that quit (`q` asks first while
    /// copies run, and the message then says so) or close an overlay (`n` answers that question), as the
    /// configuration binds them; everything else nothing.
    static func whileTooSmall(_ key: Key, in state: AppState, size: Size) -> AppAction? {
        let context = KeyContext(key: key, size: size, area: Rect(size: size))
        guard let action = globalBindings(in: state).action(for: key, in: state, context: context),
            [AppAction.quit, .quitConfirmed, .interrupt, .closeOverlay].contains(action)
        else { return nil }
        return action
    }

    /// A screen's key table, lifted to the app's state and actions, from its registration
    /// (``Screen/registered``).
    package static func bindings(for screen: Screen) -> [KeyBinding<AppState, AppAction>] {
        screen.registered.bindings
    }

    /// A screen's key table with the keys `state`'s configuration binds (``DashboardSettings/keys``).
    package static func bindings(for screen: Screen, in state: AppState) -> [KeyBinding<AppState, AppAction>] {
        state.settings.keys.applied(to: bindings(for: screen), in: .screen(screen))
    }

    /// The app-wide key table with the keys `state`'s configuration binds.
    package static func globalBindings(in state: AppState) -> [KeyBinding<AppState, AppAction>] {
        state.settings.keys.applied(to: globalBindings, in: .everywhere)
    }

    /// The keys the help bar offers in `state` drawn at `size`: the active screen's that apply now (none
    /// under an overlay), then the app-wide ones.
    package static func barHelp(_ state: AppState, size: Size? = nil) -> [KeyHelp] {
        let screen = state.overlay == nil ? bindings(for: state.screen, in: state).barHelp(in: state, size: size) : []
        return screen + globalBindings(in: state).barHelp(in: state, size: size)
    }

    static func noOverlay(_ state: AppState) -> Bool { state.overlay == nil }
    private static func notInBar(_ state: AppState) -> KeyHelp? { nil }

    /// The app-wide keys, in the help overlay's order: a click on a tab (``tabClick``) and scrolling the help
    /// overlay (``helpScroll``) among them. Ctrl-Z is the store's suspend key and is listed in ``suspendHelp``.
    package static let globalBindings: [KeyBinding<AppState, AppAction>] =
        Screen.allCases.indices.map { place in
            // The digit shows the screen at its place in the tab bar (the copy dashboard has fewer screens).
            var binding = KeyBinding<AppState, AppAction>(
                [.character(Character(String(place + 1)))], .select(Screen.allCases[place]),
                help: screenDigitsHelp, bar: notInBar,
                applies: { noOverlay($0) && $0.screens.indices.contains(place) && $0.screens[place] != $0.screen })
            binding.resolve = { state, _ in state.screens.indices.contains(place) ? .select(state.screens[place]) : nil
            }
            return binding
        } + [
            tabClick,
            KeyBinding(
                [.tab], .nextScreen, help: KeyHelp("tab", "next screen"), bar: notInBar,
                applies: { noOverlay($0) && $0.screen.next(in: $0.screens) != $0.screen }),
            KeyBinding(
                [.backTab], .previousScreen, help: KeyHelp("shift-tab", "previous screen"), bar: notInBar,
                applies: { noOverlay($0) && $0.screen.previous(in: $0.screens) != $0.screen }),
            KeyBinding(
                [.character("?")], .showHelp, help: KeyHelp("?", "this help"), bar: { _ in KeyHelp("?", "help") },
                applies: noOverlay),
            KeyBinding(
                [.escape, .character("?")], .closeOverlay, help: KeyHelp("esc", "close this help"),
                bar: { _ in KeyHelp("esc", "close") }, applies: { !noOverlay($0) }),
            helpScroll,
            KeyBinding(
                [.character("y")], .quitConfirmed, help: confirmHelp, bar: { _ in KeyHelp("y", "quit") },
                applies: asksToQuit),
            KeyBinding(
                [.character("n")], .closeOverlay, help: confirmHelp, bar: { _ in KeyHelp("n", "stay") },
                applies: asksToQuit),
            yank,
            KeyBinding(
                [.character("q")], .quit, help: quitHelp, bar: { _ in KeyHelp("q", "quit") },
                applies: { !asksToQuit($0) }),
            KeyBinding([.controlC], .interrupt, help: quitHelp, bar: notInBar),
        ]

    private static let quitHelp = KeyHelp("q / ctrl-c", "quit")
    /// The digits' help in the app-wide table: one digit a screen of the demo dashboard.
    private static let screenDigitsHelp = KeyHelp("1–\(Screen.allCases.count)", "show a screen")

    /// The digits' help as `state` offers them: as many as it has screens (the copy dashboard has three).
    private static func screenDigits(_ help: KeyHelp, in state: AppState) -> KeyHelp {
        guard help == screenDigitsHelp else { return help }
        return KeyHelp(state.screens.count > 1 ? "1–\(state.screens.count)" : "1", help.label)
    }

    /// `y` copies what ``Yank/of(_:)`` says (in the help overlay only: the bar keeps room for `? help` and `q quit`).
    private static var yank: KeyBinding<AppState, AppAction> {
        var binding = KeyBinding<AppState, AppAction>(
            [.character("y")], .yank(Yank(text: "", what: "")),
            help: KeyHelp("y", "copy the transfer's path, error or state to the clipboard"), bar: notInBar,
            applies: { Yank.of($0) != nil })
        binding.resolve = { state, _ in Yank.of(state).map(AppAction.yank) }
        return binding
    }
    private static let confirmHelp = KeyHelp("y / n", "quit or stay when q asks (copies running)")

    private static func asksToQuit(_ state: AppState) -> Bool { state.overlay == .confirmQuit }

    /// The suspend key (the store's ``App/suspendKey``, Ctrl-Z), which never reaches the keymap.
    package static let suspendHelp = KeyHelp("ctrl-z", "suspend to the shell")

    /// Every app-wide key, as the help overlay and the documentation list them.
    package static var globalHelp: [KeyHelp] { globalBindings.allHelp() + [suspendHelp] }

    /// Every app-wide key in force in `state`, as the help overlay lists them.
    package static func globalHelp(in state: AppState) -> [KeyHelp] {
        globalBindings(in: state).allHelp().map { screenDigits($0, in: state) } + [suspendHelp]
    }
}
