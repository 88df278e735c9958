import SeedModels
import StateMachineKit
import TerminalUI

/// One record of a machine's history as the History screen shows it: sequence, visit, event, verdict and
/// the state after (canonical text, and in words), with the engine's report name for invalid and stale events.
package struct HistoryRow: Hashable, Sendable {
    /// What became of the event.
    package enum Kind: Hashable, Sendable {
        /// The transition function decided (`to`, `update`, `stay`, `ignore`).
        case decided(Verdict)
        /// Impossible in that state, with the reason (reported as `statemachine.invalid`).
        case invalid(String)
        /// Sent for a visit that had ended; dropped (reported as `statemachine.stale_event`).
        case stale
        /// Sent after the machine stopped.
        case stopped
        /// Postponed while `postponeLimit` events already waited; dropped (`statemachine.postpone_overflow`).
        case overflowed
    }

    /// The machine's label (`transfer.1`, `upload`, `load`).
    package var machine: String
    /// Position among the machine's events, from 1.
    package var sequence: Int
    /// The visit the event arrived in.
    package var visit: Int
    /// The event, canonical text.
    package var event: String
    /// What happened.
    package var kind: Kind
    /// The state after, canonical text.
    package var after: String
    /// The state after as a person reads it (nil for rows made from text alone); the screen shows it in place of
    /// ``after``.
    package var presented: StatePresentation?

    /// A row from its parts.
    package init(
        machine: String, sequence: Int, visit: Int, event: String, kind: Kind, after: String,
        presented: StatePresentation? = nil
    ) {
        self.machine = machine
        self.sequence = sequence
        self.visit = visit
        self.event = event
        self.kind = kind
        self.after = after
        self.presented = presented
    }

    /// The row for one engine record.
    package init<State: PresentableState, Event>(machine: String, record: StateMachine<State, Event>.Record) {
        let kind: Kind
        switch record.outcome {
        case .moved: kind = .decided(.to)
        case .updated: kind = .decided(.update)
        case .stayed: kind = .decided(.stay)
        case .ignored: kind = .decided(.ignore)
        case .invalid(let reason): kind = .invalid(reason)
        case .stale: kind = .stale
        case .stopped: kind = .stopped
        case .postponed: kind = .decided(.postpone)
        case .overflowed: kind = .overflowed
        }
        self.init(
            machine: machine, sequence: record.sequence, visit: record.visit, event: String(describing: record.event),
            kind: kind, after: String(describing: record.after), presented: record.after.presentation.escaped)
    }

    /// The rows of a machine's history, oldest first.
    package static func rows<State: PresentableState, Event>(
        machine: String, history: [StateMachine<State, Event>.Record]
    )
        -> [HistoryRow]
    {
        history.map { HistoryRow(machine: machine, record: $0) }
    }

    /// The engine's report name for this row, if it is one the screen marks.
    package var reportName: String? {
        switch kind {
        case .invalid: Report.Name.invalid
        case .stale: Report.Name.staleEvent
        case .overflowed: Report.Name.postponeOverflow
        case .decided, .stopped: nil
        }
    }
}

extension HistoryRow {
    /// The row's text as searched: sequence, visit, event, verdict and what follows it, as the screen shows them,
    /// then the state's canonical text, so a search finds a row whichever way its state is shown.
    package var searchText: String {
        (HistoryFeature.cells(self).map(\.plainText) + [after]).joined(separator: " ")
    }

    /// The state after as text: in words when the row has them and `canonical` is false, else canonical.
    func afterText(canonical: Bool) -> String {
        canonical ? after : presented?.text ?? after
    }

    /// The state after as the screen draws it: in words in its phase's colour, or the canonical text.
    func afterLine(canonical: Bool) -> Line {
        guard !canonical, let presented else { return Line(after) }
        return Line(presented.text, style: presented.phase.style)
    }
}
