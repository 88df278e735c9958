import ScreenStates
import TerminalUI

/// The Transfers screen as a feature: reducer, key table (``bindings``) and view (in
/// `TransfersFeature+View.swift`).
///
/// The reducer never changes a transfer's state itself: a key becomes an intent for the selected machine (an
/// effect naming the events it stands for), the runtime sends the first one the machine's transition function
/// applies when the intent meets it, and the machine's next snapshot changes the row. The help bar offers a
/// key only while ``TransferModel/transition(_:_:)`` applies one of its events to the selected transfer.
package enum TransfersFeature {
    /// Applies `action`; returns the effects to run.
    package static func reduce(_ state: inout TransfersScreenState, _ action: TransfersScreenAction)
        -> [TransfersScreenEffect]
    {
        switch action {
        case .selectPrevious:
            state.select(state.selected - 1)
            return []
        case .selectNext:
            state.select(state.selected + 1)
            return []
        case .select(let row):
            state.select(row)
            return []
        case .moveSelection(let rows):
            state.select(state.selected + rows)
            return []
        case .startAll:
            return state.rows.isEmpty ? [] : [.sendAll(candidates(.start))]
        case .toggleDetail:
            state.detail = state.detail == nil && state.selectedRow != nil ? TransferDetail() : nil
            return []
        case .closeDetail:
            state.detail = nil
            return []
        case .moveDetail(let move):
            guard let detail = state.detail else { return [] }
            let offset = move.offset(
                from: detail.offset, count: Int.max / 2, height: TransferDetail.nominalHeight)
            state.detail = TransferDetail(offset: offset)
            return []
        case .scrollDetail(let offset):
            if state.detail != nil { state.detail = TransferDetail(offset: max(0, offset)) }
            return []
        case .toggleStateText:
            state.showsCanonical.toggle()
            return []
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
            return []
        case .driverStatusChanged(let row, let status):
            if state.rows.indices.contains(row) { state.rows[row].driverStatus = status }
            return []
        case .transfersRecorded(let changes):
            for change in changes where state.rows.indices.contains(change.row) {
                state.rows[change.row].take(change)
            }
            return []
        case .recordsChanged(let row, let records):
            if state.rows.indices.contains(row) { state.rows[row].take(records: records) }
            return []
        }
    }

    /// The events a key stands for, in the order they are tried: one key pauses or resumes.
    static func candidates(_ action: TransfersScreenAction) -> [TransferEvent] {
        switch action {
        case .start: [.start]
        case .togglePause: [.pause, .resume]
        case .cancel: [.cancel]
        case .retry: [.retry]
        case .selectPrevious, .selectNext, .select, .moveSelection, .startAll, .failNextOutcome, .toggleDetail,
            .closeDetail, .moveDetail,
            .scrollDetail, .toggleStateText, .machineChanged, .transfersRecorded, .driverStatusChanged, .recordsChanged:
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

    /// Every key of the screen, in the help bar's order.
    package static let bindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] =
        [
            KeyBinding(
                [.up, .character("k")], .selectPrevious, help: KeyHelp("↑ / k", "previous transfer"),
                bar: { _ in selectHelp }, applies: { $0.rows.count > 1 }),
            KeyBinding(
                [.down, .character("j")], .selectNext, help: KeyHelp("↓ / j", "next transfer"),
                bar: { _ in selectHelp }, applies: { $0.rows.count > 1 }),
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
                }),
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
        ] + detailScrollBindings + pageBindings + mouseBindings

    private static let pageHelp = KeyHelp("pgup / pgdn / g / G", "page up / down, first / last transfer")

    /// With the detail pane closed, Page Up/Down move the selection by the rows drawn, `g`/`G` to the first and
    /// the last transfer: a list of thousands of files is paged, not walked a row at a time.
    private static let pageBindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] =
        [(Key.pageUp, -1), (.pageDown, 1)].map { key, direction in
            KeyBinding(
                [key], .moveSelection(by: direction * TransferDetail.nominalHeight), help: pageHelp, bar: { _ in nil },
                applies: { $0.detail == nil && $0.rows.count > 1 }
            ).laidOut { _, state, context in
                .moveSelection(by: direction * max(1, layout(state, in: context.area).table.height - 1))
            }
        } + [
            KeyBinding(
                [.character("g")], .select(row: 0), help: pageHelp, bar: { _ in nil },
                applies: { $0.detail == nil && $0.rows.count > 1 }),
            KeyBinding(
                [.character("G")], .select(row: Int.max), help: pageHelp, bar: { _ in nil },
                applies: { $0.detail == nil && $0.rows.count > 1 }),
        ]

    private static let detailScrollHelp = KeyHelp("pgup / pgdn / home / end", "scroll the detail pane")

    /// Page Up/Down, Home and End scroll the open detail pane (↑/↓ keep selecting transfers); pressed on the
    /// drawn screen, each move is resolved against the pane as drawn (``detailOffset(after:_:in:)``).
    private static let detailScrollBindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] =
        [(Key.pageUp, ScrollMove.pageUp), (.pageDown, .pageDown), (.home, .top), (.end, .bottom)].map { key, move in
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
