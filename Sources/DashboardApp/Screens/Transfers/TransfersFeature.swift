import ScreenStates
import TerminalUI

/// The Transfers screen as a feature: reducer, keymap, help and view (in `TransfersFeature+View.swift`).
///
/// The reducer never changes a transfer's state itself: a key becomes an event for the selected machine
/// (an effect), and the machine's next snapshot changes the row. Whether a key applies is asked of
/// ``TransferModel/transition(_:_:)`` for the selected transfer: a key whose event would not change it
/// produces no effect, and the help bar does not offer it.
package enum TransfersFeature {
    /// Applies `action`; returns the effects to run.
    package static func reduce(_ state: inout TransfersScreenState, _ action: TransfersAction) -> [TransfersEffect] {
        switch action {
        case .selectPrevious:
            state.selected = max(0, min(state.selected - 1, state.rows.count - 1))
            return []
        case .selectNext:
            state.selected = max(0, min(state.selected + 1, state.rows.count - 1))
            return []
        case .select(let row):
            state.selected = max(0, min(row, state.rows.count - 1))
            return []
        case .start, .togglePause, .cancel, .retry:
            guard let row = state.selectedRow, let event = event(for: action, in: row.model) else { return [] }
            return [.send(row: state.selected, event)]
        case .failNextOutcome:
            guard let row = state.selectedRow, !row.simulation.failsNextOutcome else { return [] }
            return [.failNextOutcome(row: state.selected)]
        case .machineChanged(let row, let model):
            if state.rows.indices.contains(row) { state.rows[row].model = model }
            return []
        case .simulationChanged(let row, let status):
            if state.rows.indices.contains(row) { state.rows[row].simulation = status }
            return []
        case .recordsChanged(let row, let records):
            if state.rows.indices.contains(row) { state.rows[row].tally.add(records) }
            return []
        }
    }

    /// The events a key stands for, in the order they are tried: one key pauses or resumes.
    static func candidates(_ action: TransfersAction) -> [TransferEvent] {
        switch action {
        case .start: [.start]
        case .togglePause: [.pause, .resume]
        case .cancel: [.cancel]
        case .retry: [.retry]
        case .selectPrevious, .selectNext, .select, .failNextOutcome, .machineChanged, .simulationChanged,
            .recordsChanged:
            []
        }
    }

    /// The event `action` sends to a transfer at `model`: the first of its candidates the transfer's
    /// transition function applies; nil when none does (the help bar leaves such keys out).
    static func event(for action: TransfersAction, in model: TransferModel) -> TransferEvent? {
        EventRule.first(of: candidates(action), in: model, TransferModel.transition)
    }

    /// The action `key` stands for on this screen; nil for keys the screen does not use.
    package static func keymap(_ key: Key, _ state: TransfersScreenState) -> TransfersAction? {
        switch key {
        case .up, .character("k"): .selectPrevious
        case .down, .character("j"): .selectNext
        case .character("s"): .start
        case .character(" "), .character("p"): .togglePause
        case .character("c"): .cancel
        case .character("r"): .retry
        case .character("f"): .failNextOutcome
        case .character, .control, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .tab,
            .backTab, .escape, .enter, .backspace, .function, .resize, .mouse:
            nil
        }
    }

    /// The keys that do something for the selected transfer now, in the order the help bar shows them.
    package static func help(_ state: TransfersScreenState) -> [KeyHelp] {
        var items: [KeyHelp] = []
        if state.rows.count > 1 { items.append(KeyHelp("↑↓", "select")) }
        guard let row = state.selectedRow else { return items }
        let keys: [(key: String, action: TransfersAction)] = [
            ("r", .retry), ("s", .start), ("p", .togglePause), ("c", .cancel),
        ]
        for (key, action) in keys {
            if let event = event(for: action, in: row.model) { items.append(KeyHelp(key, label(event))) }
        }
        if !row.simulation.failsNextOutcome { items.append(KeyHelp("f", "fail next")) }
        return items
    }

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

    /// Every key of the screen, for the help overlay.
    package static let keys = [
        KeyHelp("↑ / k", "previous transfer"),
        KeyHelp("↓ / j", "next transfer"),
        KeyHelp("s", "start"),
        KeyHelp("space / p", "pause / resume"),
        KeyHelp("c", "cancel"),
        KeyHelp("r", "retry a failed transfer"),
        KeyHelp("f", "next outcome fails"),
    ]
}
