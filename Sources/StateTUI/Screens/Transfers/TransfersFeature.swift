import ScreenStates
import TerminalUI

/// The Transfers screen as a feature: reducer, keymap, help and view (in `TransfersFeature+View.swift`).
///
/// The reducer never changes a transfer's state itself: a key becomes an event for the selected machine
/// (an effect), and the machine's next snapshot changes the row. A key that does not apply to the selected
/// transfer now produces no effect, and the help bar does not offer it.
public enum TransfersFeature {
    /// Applies `action`; returns the effects to run.
    public static func reduce(_ state: inout TransfersScreenState, _ action: TransfersAction) -> [TransfersEffect] {
        switch action {
        case .selectPrevious:
            state.selected = max(0, min(state.selected - 1, state.rows.count - 1))
            return []
        case .selectNext:
            state.selected = max(0, min(state.selected + 1, state.rows.count - 1))
            return []
        case .start, .togglePause, .cancel, .retry:
            guard let row = state.selectedRow, let event = event(for: action, in: row.model.phase) else { return [] }
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
        }
    }

    /// The event a user action sends to a transfer in `phase`; nil when it does not apply there (the help
    /// bar leaves such keys out). Snapshot actions send nothing.
    static func event(for action: TransfersAction, in phase: TransferState) -> TransferEvent? {
        switch (action, phase) {
        case (.start, .idle), (.start, .completed), (.start, .failed): .start
        case (.togglePause, .running): .pause
        case (.togglePause, .paused): .resume
        case (.cancel, .running), (.cancel, .paused): .cancel
        case (.retry, .failed): .retry
        case (.start, .running), (.start, .paused), (.togglePause, .idle), (.togglePause, .completed),
            (.togglePause, .failed), (.cancel, .idle), (.cancel, .completed), (.cancel, .failed),
            (.retry, .idle), (.retry, .running), (.retry, .paused), (.retry, .completed),
            (.selectPrevious, _), (.selectNext, _), (.failNextOutcome, _), (.machineChanged, _),
            (.simulationChanged, _):
            nil
        }
    }

    /// The action `key` stands for on this screen; nil for keys the screen does not use.
    public static func keymap(_ key: Key, _ state: TransfersScreenState) -> TransfersAction? {
        switch key {
        case .up, .character("k"): .selectPrevious
        case .down, .character("j"): .selectNext
        case .character("s"): .start
        case .character(" "), .character("p"): .togglePause
        case .character("c"): .cancel
        case .character("r"): .retry
        case .character("f"): .failNextOutcome
        case .character, .control, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .tab,
            .backTab, .escape, .enter, .backspace, .function, .resize:
            nil
        }
    }

    /// The keys that do something for the selected transfer now, in the order the help bar shows them.
    public static func help(_ state: TransfersScreenState) -> [KeyHelp] {
        var items: [KeyHelp] = []
        if state.rows.count > 1 { items.append(KeyHelp("↑↓", "select")) }
        guard let row = state.selectedRow else { return items }
        switch row.model.phase {
        case .idle, .completed:
            items.append(KeyHelp("s", "start"))
        case .running:
            items += [KeyHelp("p", "pause"), KeyHelp("c", "cancel")]
        case .paused:
            items += [KeyHelp("p", "resume"), KeyHelp("c", "cancel")]
        case .failed:
            items += [KeyHelp("r", "retry"), KeyHelp("s", "start")]
        }
        if !row.simulation.failsNextOutcome { items.append(KeyHelp("f", "fail next")) }
        return items
    }

    /// Every key of the screen, for the help overlay.
    public static let keys = [
        KeyHelp("↑ / k", "previous transfer"),
        KeyHelp("↓ / j", "next transfer"),
        KeyHelp("s", "start"),
        KeyHelp("space / p", "pause / resume"),
        KeyHelp("c", "cancel"),
        KeyHelp("r", "retry a failed transfer"),
        KeyHelp("f", "next outcome fails"),
    ]
}
