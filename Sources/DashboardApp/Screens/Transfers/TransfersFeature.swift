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
            state.selected = max(0, min(state.selected - 1, state.rows.count - 1))
            return []
        case .selectNext:
            state.selected = max(0, min(state.selected + 1, state.rows.count - 1))
            return []
        case .select(let row):
            state.selected = max(0, min(row, state.rows.count - 1))
            return []
        case .start, .togglePause, .cancel, .retry:
            // The machine judges the intent when the effect meets it: this snapshot may not show yet what an
            // earlier key sent (`s p` typed fast), so it is not asked here.
            guard state.selectedRow != nil else { return [] }
            return [.send(row: state.selected, candidates(action))]
        case .failNextOutcome:
            guard let row = state.selectedRow, !row.driverStatus.failsNextOutcome else { return [] }
            return [.failNextOutcome(row: state.selected)]
        case .machineChanged(let row, let model):
            if state.rows.indices.contains(row) { state.rows[row].model = model }
            return []
        case .driverStatusChanged(let row, let status):
            if state.rows.indices.contains(row) { state.rows[row].driverStatus = status }
            return []
        case .recordsChanged(let row, let records):
            if state.rows.indices.contains(row) { state.rows[row].tally.add(records) }
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
        case .selectPrevious, .selectNext, .select, .failNextOutcome, .machineChanged, .driverStatusChanged,
            .recordsChanged:
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
            state.selectedRow.flatMap { Self.event(for: action, in: $0.model) }
        }
        return KeyBinding(
            keys, action, help: help, judge: .machine, bar: { event($0).map { KeyHelp(bar, label($0)) } },
            applies: { event($0) != nil })
    }

    private static let selectHelp = KeyHelp("↑↓", "select")

    /// Every key of the screen, in the help bar's order.
    package static let bindings: [KeyBinding<TransfersScreenState, TransfersScreenAction>] = [
        KeyBinding(
            [.up, .character("k")], .selectPrevious, help: KeyHelp("↑ / k", "previous transfer"),
            bar: { _ in selectHelp }, applies: { $0.rows.count > 1 }),
        KeyBinding(
            [.down, .character("j")], .selectNext, help: KeyHelp("↓ / j", "next transfer"),
            bar: { _ in selectHelp }, applies: { $0.rows.count > 1 }),
        machineKey([.character("r")], .retry, KeyHelp("r", "retry a failed transfer"), bar: "r"),
        machineKey([.character("s")], .start, KeyHelp("s", "start"), bar: "s"),
        machineKey([.character(" "), .character("p")], .togglePause, KeyHelp("space / p", "pause / resume"), bar: "p"),
        machineKey([.character("c")], .cancel, KeyHelp("c", "cancel"), bar: "c"),
        KeyBinding(
            [.character("f")], .failNextOutcome, help: KeyHelp("f", "next outcome fails"),
            bar: { _ in KeyHelp("f", "fail next") },
            applies: { $0.selectedRow.map { !$0.driverStatus.failsNextOutcome } ?? false }),
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
