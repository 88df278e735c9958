import TerminalUI

/// What depends on the drawn layout: mouse reports hit what is drawn where, and the help overlay scrolls by
/// the height it is drawn at.
extension Keymap {
    /// The action for `key` in `state` drawn at `size`: a click on a tab shows its screen, a click on a
    /// transfer selects it, the wheel moves the selection (Transfers) or scrolls (History, Graph); while the
    /// help overlay is open ↑/↓/PgUp/PgDn/Home/End and the wheel scroll it. Every other key means what
    /// ``action(for:in:)`` says.
    package static func action(for key: Key, in state: AppState, size: Size) -> AppAction? {
        if state.overlay == .help, let move = ScrollMove(key: key) {
            return scrollHelp(state, size: size) { move.offset(from: $0, count: $1, height: $2) }
        }
        guard case .mouse(let event) = key else {
            return action(for: key, in: state).map { laidOut($0, in: state, size: size) }
        }
        guard size.width >= AppView.minimumSize.width, size.height >= AppView.minimumSize.height else { return nil }
        if state.overlay == .help {
            return scrollHelp(state, size: size) {
                ScrollMove.offset(afterWheel: event, from: $0, count: $1, height: $2)
            }
        }
        let parts = AppView.parts(size)
        switch event.action {
        case .press(.left):
            let tabs = AppView.tabBar(selected: state.screen, width: size.width)
            if let tab = tabs.tab(at: event.position, in: parts[0]) {
                let screen = Screen.allCases[tab]
                return screen != state.screen ? .select(screen) : nil
            }
            return click(at: event.position, in: state, area: parts[1])
        case .wheelUp:
            return wheel(up: true, in: state)
        case .wheelDown:
            return wheel(up: false, in: state)
        case .press(.middle), .press(.right), .release:
            return nil
        }
    }

    /// `action` resolved against the screen drawn at `size`: History's pages are the rows drawn, a scroll of
    /// the Transfers detail pane stops at the pane's last line.
    static func laidOut(_ action: AppAction, in state: AppState, size: Size) -> AppAction {
        let area = AppView.parts(size)[1]
        if case .history(let history) = action { return .history(HistoryFeature.laidOut(history, in: area)) }
        if case .transfers(.moveDetail(let move)) = action,
            let offset = TransfersFeature.detailOffset(after: move, state.transfers, in: area)
        {
            return .transfers(.scrollDetail(to: offset))
        }
        return action
    }

    /// A click on the active screen, drawn in `area`.
    static func click(at point: Point, in state: AppState, area: Rect) -> AppAction? {
        switch state.screen {
        case .transfers:
            guard let row = TransfersFeature.row(at: point, state.transfers, in: area),
                row != state.transfers.selected
            else { return nil }
            return .transfers(.select(row: row))
        case .upload, .load, .graph, .history:
            return nil
        }
    }

    /// A turn of the wheel on the active screen: the selection moves a row on Transfers, History and Graph
    /// scroll by ``ScrollMove/wheelLines``.
    static func wheel(up: Bool, in state: AppState) -> AppAction? {
        let lines = up ? -ScrollMove.wheelLines : ScrollMove.wheelLines
        switch state.screen {
        case .transfers: return .transfers(up ? .selectPrevious : .selectNext)
        case .history: return .history(.scroll(lines))
        case .graph: return .graph(.scroll(lines))
        case .upload, .load: return nil
        }
    }

    /// The help overlay scrolled by `move` (from the first line shown, the lines there are and the rows
    /// that show them); nil when it would not move.
    static func scrollHelp(_ state: AppState, size: Size, _ move: (Int, Int, Int) -> Int?) -> AppAction? {
        let help = AppView.helpLayout(state, size: size)
        let height = help.modal.bodyHeight(in: help.area)
        guard let line = move(state.helpOffset, help.lines.count, height),
            line != ScrollView.clampedOffset(state.helpOffset, count: help.lines.count, height: height)
        else { return nil }
        return .scrollHelp(toLine: line)
    }
}
