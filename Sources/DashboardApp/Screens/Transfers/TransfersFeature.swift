import SeedModels
import TerminalUI

/// The Transfers screen as a feature: reducer, key table (``bindings``) and view (in
/// `TransfersFeature+View.swift`).
///
/// The reducer never changes a transfer's state itself: a key becomes an intent for the selected machine (an
/// effect naming the events it stands for), the runtime sends the first one the machine's transition function
/// applies when the intent meets it, and the machine's next snapshot changes the row. The help bar offers a
/// key only while ``TransferModel/transition(_:_:)`` applies one of its events to the selected transfer.
package enum TransfersFeature {
    /// Applies `action`; returns the effects to run. The rows a query shows are placed again after every action
    /// that changed rows, those rows only, so a filter or a sort follows the machines' snapshots (a change of the
    /// query draws them all again itself).
    package static func reduce(_ state: inout TransfersScreenState, _ action: TransfersScreenAction)
        -> [TransfersScreenEffect]
    {
        let effects = apply(&state, action)
        if state.query.isActive, let changed = changedRows(action) { state.reorder(changed: changed) }
        return effects
    }

    /// The rows `action` changes; nil for an action that changes none.
    private static func changedRows(_ action: TransfersScreenAction) -> [Int]? {
        switch action {
        case .transfersRecorded(let changes): changes.map(\.row)
        case .machineChanged(let row, _), .driverStatusChanged(let row, _), .recordsChanged(let row, _): [row]
        case .selectPrevious, .selectNext, .select, .moveSelection, .moveCursor, .list, .start, .startAll,
            .togglePause, .cancel, .retry, .failNextOutcome, .toggleDetail, .closeDetail, .moveDetail, .scrollDetail,
            .toggleStateText, .detailRecorded:
            nil
        }
    }

    /// Applies an action before the rows are ordered again: a key that reaches a machine returns the effect
    /// that sends it; every other action changes the state only.
    private static func apply(_ state: inout TransfersScreenState, _ action: TransfersScreenAction)
        -> [TransfersScreenEffect]
    {
        switch action {
        case .selectPrevious:
            moveSelection(&state, by: -1)
        case .selectNext:
            moveSelection(&state, by: 1)
        case .select(let row):
            state.select(row)
        case .moveSelection(let rows):
            moveSelection(&state, by: rows)
        case .moveCursor(let move, let rows):
            if let row = move.selection(from: state.selected, in: state.shown, height: rows) { state.select(row) }
        case .list(let edit):
            state.changeQuery(edit)
        case .startAll:
            return state.rows.isEmpty ? [] : [.sendAll(candidates(.start))]
        case .toggleDetail:
            state.detail = state.detail == nil && state.selectedRow != nil ? TransferDetail() : nil
        case .closeDetail:
            state.detail = nil
        case .moveDetail(let move):
            guard let detail = state.detail else { return [] }
            let offset = move.offset(
                from: detail.offset, count: Int.max / 2, height: TransferDetail.nominalHeight)
            state.detail?.offset = offset
        case .scrollDetail(let offset):
            state.detail?.offset = max(0, offset)
        case .toggleStateText:
            state.showsCanonical.toggle()
        case .start, .togglePause, .cancel, .retry:
            // The machine judges the intent when the effect meets it: this snapshot may not show yet what an
            // earlier key sent (`s p` typed fast), so it is not asked here.
            guard state.selectedRow != nil else { return [] }
            return [.send(row: state.selected, candidates(action))]
        case .failNextOutcome:
            guard state.simulatesFaults, let row = state.selectedRow, !row.driverStatus.failsNextOutcome else {
                return []
            }
            return [.failNextOutcome(row: state.selected)]
        case .machineChanged(let row, let model):
            if state.rows.indices.contains(row) { state.rows[row].model = model }
        case .driverStatusChanged(let row, let status):
            if state.rows.indices.contains(row) { state.rows[row].driverStatus = status }
        case .transfersRecorded(let changes):
            for change in changes where state.rows.indices.contains(change.row) {
                state.rows[change.row].take(change)
            }
        case .recordsChanged(let row, let records):
            if state.rows.indices.contains(row) { state.rows[row].take(records: records) }
        case .detailRecorded(let row, let records):
            // A batch for a row no longer selected, or for a pane closed since, is the old pane's.
            if row == state.selected { state.detail?.take(records) }
        }
        return []
    }

    /// Selects the row drawn `rows` below the selected one (negative: above), within the rows drawn.
    private static func moveSelection(_ state: inout TransfersScreenState, by rows: Int) {
        let shown = state.shown
        guard !shown.isEmpty else { return }
        let position = (shown.firstIndex(of: state.selected) ?? 0) + max(-shown.count, min(shown.count, rows))
        state.select(shown[min(shown.count - 1, max(0, position))])
    }

    /// The events a key stands for, in the order they are tried: one key pauses or resumes.
    static func candidates(_ action: TransfersScreenAction) -> [TransferEvent] {
        switch action {
        case .start: [.start]
        case .togglePause: [.pause, .resume]
        case .cancel: [.cancel]
        case .retry: [.retry]
        case .selectPrevious, .selectNext, .select, .moveSelection, .moveCursor, .list, .startAll, .failNextOutcome,
            .toggleDetail,
            .closeDetail, .moveDetail,
            .scrollDetail, .toggleStateText, .machineChanged, .transfersRecorded, .driverStatusChanged, .recordsChanged,
            .detailRecorded:
            []
        }
    }

    /// The event `action` sends to a transfer at `model`: the first of its candidates the transfer's
    /// transition function applies; nil when none does (the help bar leaves such keys out).
    static func event(for action: TransfersScreenAction, in model: TransferModel) -> TransferEvent? {
        TransfersRuntime.event(of: candidates(action), at: model)
    }

    /// A key that sends one of `action`'s events to the selected transfer: offered in the bar (named for the
    /// event it would send now) while the selected transfer's transition function applies one; the machine
    /// judges it when pressed.
    private static func machineKey(_ keys: [Key], _ action: TransfersScreenAction, _ help: KeyHelp, bar: String)
        -> KeyBinding<TransfersScreenState, TransfersScreenAction>
    {
        @Sendable func event(_ state: TransfersScreenState) -> TransferEvent? {
            state.selectedModel.flatMap { Self.event(for: action, in: $0) }
        }
        return KeyBinding(
            keys, action, help: help, judge: .machine, bar: { event($0).map { KeyHelp(bar, label($0)) } },
            applies: { event($0) != nil })
    }

    private static let selectHelp = KeyHelp("↑↓", "select")

    /// The columns `o` sorts by, in turn: the name, the size (largest first), the percent done (most first), the
    /// state (running, paused, failed, idle, completed).
    package static let sortColumns: [(title: String, key: @Sendable (TransferRow) -> ListSortKey)] = [
        ("Name", { .name($0.name) }),
        ("Size", { row in row.driverStatus.totalBytes.map { .number(-Double($0)) } ?? .missing }),
        ("Done", { .number(-fraction($0.model)) }),
        ("State", { .number(Double(phaseRank($0.presentation.phase))) }),
    ]

    /// Where a phase sorts in the State column: work under way first, finished work last.
    private static func phaseRank(_ phase: PresentedPhase) -> Int {
        switch phase {
        case .active: 0
        case .paused: 1
        case .failed: 2
        case .idle: 3
        case .done: 4
        }
    }

    /// What the filter looks for in a row: its name and its state in words and in canonical text.
    static func filterText(_ row: TransferRow) -> String {
        "\(row.name) \(row.presentation.text) \(row.stateText)"
    }

    /// The rows a page moves over in the screen's `area`: the table's rows less its header.
    static func pageRows(_ state: TransfersScreenState, in area: Rect) -> Int {
        max(1, layout(state, in: area).table.height - 1)
    }

    /// The list's moves (``ListKeys``): ↑↓ first in the bar, the paging keys after the detail pane's, which
    /// take them while it is open.
    private static let listMoves: [KeyBinding<TransfersScreenState, TransfersScreenAction>] = ListKeys.moves(
        page: TransferDetail.nominalHeight, rows: pageRows, applies: { $0.shownCount > 1 },
        bar: { _, move in move == .lineUp || move == .lineDown ? selectHelp : nil },
        move: { .moveCursor($0, rows: $1) })

    /// Every key of the screen, in the help bar's order; while the filter is typed only its own keys apply.
    package static let bindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] =
        (Array(listMoves.prefix(2))
        + [
            machineKey([.character("r")], .retry, KeyHelp("r", "retry a failed transfer"), bar: "r"),
            machineKey([.character("s")], .start, KeyHelp("s", "start"), bar: "s"),
            // In the help overlay only: the bar keeps room for `? help` and `q quit` at 80 columns.
            KeyBinding(
                [.character("S")], .startAll, help: KeyHelp("S", "start every transfer"), bar: { _ in nil },
                applies: { state in state.rows.contains { event(for: .start, in: $0.model) != nil } }),
            machineKey(
                [.character(" "), .character("p")], .togglePause, KeyHelp("space / p", "pause / resume"), bar: "p"),
            machineKey([.character("c")], .cancel, KeyHelp("c", "cancel"), bar: "c"),
            KeyBinding(
                [.character("f")], .failNextOutcome, help: KeyHelp("f", "next outcome fails"),
                bar: { _ in KeyHelp("f", "fail next") },
                applies: {
                    $0.simulatesFaults && $0.hasSelection && !$0.rows[$0.selected].driverStatus.failsNextOutcome
                }
            ).offered { $0.simulatesFaults },
            // `v` is in the help overlay only: the bar keeps room for `? help` and `q quit` at 80 columns.
            KeyBinding(
                [.character("v")], .toggleStateText, help: KeyHelp("v", "states as words / canonical text"),
                bar: { _ in nil }),
            KeyBinding(
                [.enter], .toggleDetail, help: KeyHelp("enter", "open / close the detail pane"),
                bar: { $0.detail == nil ? KeyHelp("enter", "details") : nil }, applies: { $0.hasSelection }),
            KeyBinding(
                [.escape], .closeDetail, help: KeyHelp("esc", "close the detail pane"),
                bar: { _ in KeyHelp("esc", "close") }, applies: { $0.detail != nil }),
        ] + detailScrollBindings + listMoves.dropFirst(2)).map { ListKeys.notWhileTyping($0, query: { $0.query }) }
        + ListKeys.query(sortTitles: sortColumns.map(\.title), query: \.query, edit: { .list($0) })
        + mouseBindings

    /// What a key types into the filter while it is typed (``ListKeys/textInput(_:_:edit:)``).
    package static func textInput(_ key: Key, _ state: TransfersScreenState) -> TransfersScreenAction? {
        ListKeys.textInput(key, state.query) { .list($0) }
    }

    private static let detailScrollHelp = KeyHelp(
        "pgup / pgdn / home / end / g / G", "scroll the open detail pane")

    /// While the detail pane is open it has the paging keys: Page Up/Down, Home/End and `g`/`G` scroll it (↑/↓
    /// keep selecting transfers); pressed on the drawn screen, each move is resolved against the pane as drawn
    /// (``detailOffset(after:_:in:)``).
    private static let detailScrollBindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] =
        [
            (Key.pageUp, ScrollMove.pageUp), (.pageDown, .pageDown), (.home, .top), (.end, .bottom),
            (.character("g"), .top), (.character("G"), .bottom),
        ].map { key, move in
            KeyBinding(
                [key], .moveDetail(move), help: detailScrollHelp, bar: { _ in nil }, applies: { $0.detail != nil }
            ).laidOut { action, state, context in
                detailOffset(after: move, state, in: context.area).map { .scrollDetail(to: $0) } ?? action
            }
        }

    /// A click selects the transfer under it (resolved against the table as drawn); the wheel moves the
    /// selection.
    private static let mouseBindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] = [
        KeyBinding(
            [], mouse: [.press(.left)], help: KeyHelp("click", "select a transfer"), bar: { _, _ in nil }
        ) { state, context in
            guard let point = context.position, let row = row(at: point, state, in: context.area),
                row != state.selected
            else { return nil }
            return .select(row: row)
        },
        KeyBinding([], .selectPrevious, help: wheelHelp, mouse: [.wheelUp], bar: { _ in nil }),
        KeyBinding([], .selectNext, help: wheelHelp, mouse: [.wheelDown], bar: { _ in nil }),
    ]

    private static let wheelHelp = KeyHelp("wheel", "previous / next transfer")

    /// What the help bar calls a key sending `event`.
    private static func label(_ event: TransferEvent) -> String {
        switch event {
        case .start: "start"
        case .pause: "pause"
        case .resume: "resume"
        case .cancel: "cancel"
        case .retry: "retry"
        case .progress, .succeeded, .failed: "\(event)"
        }
    }
}
