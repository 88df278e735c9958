import TerminalUI

/// The app-wide bindings whose action depends on the drawn layout: a click on a tab hits what is drawn where,
/// and the help overlay scrolls by the height it is drawn at. They sit in ``Keymap/globalBindings`` like every
/// other key; the screens declare their own clicks and wheel in their tables.
extension Keymap {
    /// A click on a tab shows its screen (not under the help overlay).
    static let tabClick = KeyBinding<AppState, AppAction>(
        [], mouse: [.press(.left)], help: KeyHelp("click a tab", "show its screen"), bar: { _, _ in nil },
        applies: noOverlay
    ) { state, context in
        guard let point = context.position else { return nil }
        let tabs = AppView.tabBar(state.screens, selected: state.screen, width: context.size.width)
        guard let tab = tabs.tab(at: point, in: AppView.parts(context.size)[0]), state.screens.indices.contains(tab)
        else { return nil }
        let screen = state.screens[tab]
        return screen != state.screen ? .select(screen) : nil
    }

    /// While the help overlay is open ↑/↓/PgUp/PgDn/Home/End and the wheel scroll it, when it is taller than
    /// the frame; the bar offers `↑↓ scroll` then.
    static let helpScroll = KeyBinding<AppState, AppAction>(
        [.up, .down, .pageUp, .pageDown, .home, .end], mouse: [.wheelUp, .wheelDown],
        help: KeyHelp("↑↓ pgup pgdn home end wheel", "scroll this help"),
        bar: { state, size in size.flatMap { helpScrolls(state, size: $0) ? KeyHelp("↑↓", "scroll") : nil } },
        applies: { $0.overlay == .help }, resolve: scrollHelp)

    /// Whether the help overlay drawn at `size` is taller than its body.
    static func helpScrolls(_ state: AppState, size: Size) -> Bool {
        let help = AppView.helpLayout(state, size: size)
        return help.lines.count > help.modal.bodyHeight(in: help.area)
    }

    /// The help overlay scrolled by the key of `context` (from the first line shown, by the lines there are
    /// and the rows that show them); nil when it would not move.
    static func scrollHelp(_ state: AppState, _ context: KeyContext) -> AppAction? {
        let help = AppView.helpLayout(state, size: context.size)
        let height = help.modal.bodyHeight(in: help.area)
        let (from, count) = (state.helpOffset, help.lines.count)
        let line: Int?
        if case .mouse(let event) = context.key {
            line = ScrollMove.offset(afterWheel: event, from: from, count: count, height: height)
        } else {
            line = ScrollMove(key: context.key)?.offset(from: from, count: count, height: height)
        }
        guard let line, line != ScrollView.clampedOffset(from, count: count, height: height) else { return nil }
        return .scrollHelp(toLine: line)
    }
}
