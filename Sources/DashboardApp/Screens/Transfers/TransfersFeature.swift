import ScreenStates
import TerminalUI

/// The Transfers screen as a feature: reducer, keymap, help and view (in `TransfersFeature+View.swift`).
///
/// The reducer never changes a transfer's state itself: a key becomes an event for the selected machine
/// (an effect), and the machine's next snapshot changes the row. Whether a key applies is asked of
/// ``TransferModel/transition(_:_:)`` for the selected transfer: a key whose event would not change it
/// produces no effect, and the help bar does not offer it.
public enum TransfersFeature {
    /// Applies `action`; returns the effects to run.
    public static func reduce(_ state: inout TransfersScreenState, _ action: TransfersAction) -> [TransfersEffect] {
        switch action {
        case .selectPrevious, .selectNext:
            let step = action == .selectNext ? 1 : -1
            let next = max(0, min(state.selected + step, state.rows.count - 1))
            if next != state.selected, state.detail != nil { state.detail = TransferDetail() }
            state.selected = next
            return []
        case .toggleDetail:
            state.detail = state.detail == nil && state.selectedRow != nil ? TransferDetail() : nil
            return []
        case .closeDetail:
            state.detail = nil
            return []
        case .scrollDetail(let offset):
            if state.detail != nil { state.detail = TransferDetail(offset: max(0, offset)) }
            return []
        case .toggleStateText:
            state.showsCanonical.toggle()
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
        case .machineSampled(let row, let model, let sample):
            if state.rows.indices.contains(row) { state.rows[row].take(model, sample) }
            return []
        case .recordsChanged(let row, let records):
            if state.rows.indices.contains(row) { state.rows[row].take(records: records) }
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
        case .selectPrevious, .selectNext, .failNextOutcome, .toggleDetail, .closeDetail, .scrollDetail,
            .toggleStateText, .machineChanged, .machineSampled, .simulationChanged, .recordsChanged:
            []
        }
    }

    /// The event `action` sends to a transfer at `model`: the first of its candidates the transfer's
    /// transition function applies; nil when none does (the help bar leaves such keys out).
    static func event(for action: TransfersAction, in model: TransferModel) -> TransferEvent? {
        EventRule.first(of: candidates(action), in: model, TransferModel.transition)
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
        case .character("v"): .toggleStateText
        case .enter: state.selectedRow == nil ? nil : .toggleDetail
        case .escape: state.detail == nil ? nil : .closeDetail
        case .character, .control, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .tab,
            .backTab, .backspace, .function, .resize, .mouse:
            nil
        }
    }

    /// The keys that do something for the selected transfer now, in the order the help bar shows them.
    public static func help(_ state: TransfersScreenState) -> [KeyHelp] {
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
        // `v` is in the help overlay: the bar keeps room for `? help` and `q quit` at 80 columns.
        items.append(state.detail == nil ? KeyHelp("enter", "details") : KeyHelp("esc", "close"))
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
    public static let keys = [
        KeyHelp("↑ / k", "previous transfer"),
        KeyHelp("↓ / j", "next transfer"),
        KeyHelp("s", "start"),
        KeyHelp("space / p", "pause / resume"),
        KeyHelp("c", "cancel"),
        KeyHelp("r", "retry a failed transfer"),
        KeyHelp("f", "next outcome fails"),
        KeyHelp("enter", "open / close the detail pane"),
        KeyHelp("esc", "close the detail pane"),
        KeyHelp("pgup / pgdn", "scroll the detail pane"),
        KeyHelp("v", "states as words / canonical text"),
    ]
}
