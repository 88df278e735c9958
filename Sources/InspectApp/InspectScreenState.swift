import DashboardApp
import StateMachineInspector
import TerminalUI

/// The inspect screens, in tab order; the raw value is the number key that selects one.
package enum InspectTab: Int, CaseIterable, Hashable, Sendable {
    /// Every machine of the program.
    case machines = 1
    /// The selected machine's records, with time travel.
    case history
    /// The selected machine's graph, its state lit.
    case graph

    /// The tab's title.
    package var title: String {
        switch self {
        case .machines: "Machines"
        case .history: "History"
        case .graph: "Graph"
        }
    }
}

/// What `statetui inspect NAME` shows: the program as its messages built it, the screen, the selected
/// machine and record, the graph's pan, and whether the user is done.
package struct InspectScreenState: Hashable, Sendable {
    /// Where the program's socket is (for the header).
    package var socketPath: String
    /// The program, built only from its messages (``StateMachineInspector/InspectedProgram/apply(_:)``).
    package var program: InspectedProgram
    /// The screen shown.
    package var tab: InspectTab
    /// The id of the selected machine, if any machine is known.
    package var machine: Int?
    /// The sequence number of the record travelled to; `nil` follows the newest.
    package var record: Int?
    /// The graph's first row and column shown.
    package var graphOffset = 0
    /// See ``graphOffset``.
    package var graphColumn = 0
    /// The Machines list's filter and sort column (``InspectFeature/sortColumns``).
    package var query = ListQuery()
    /// History's search (`/`, the dashboard History's ``HistorySearch``); nil when none.
    package var search: HistorySearch?
    /// The column `o` sorts History's records by (``HistorySort``); nil: time order.
    package var historySort: Int?
    /// Whether states show as their canonical text (`v`) rather than in words.
    package var showsCanonical = false
    /// Whether the graph shows every state seen rather than one box per case (`f`).
    package var showsFullGraph = false
    /// How states read in words and collapse by case (``StateReadings``).
    package var readings = StateReadings.standard
    /// The keys a configuration file binds (``KeyOverrides``, the `[keys]` actions whose places name Inspect).
    package var keys = KeyOverrides()
    /// Why the connection failed, when it was not a clean end.
    package var failure: String?
    /// Set when the user quits; the run loop returns once it is.
    package var exit: ExitReason?

    /// The screens before any message from the program at `socketPath`.
    package init(socketPath: String, program: InspectedProgram = InspectedProgram(), tab: InspectTab = .machines) {
        self.socketPath = socketPath
        self.program = program
        self.tab = tab
    }

    /// The selected machine, if known.
    package var selectedMachine: InspectedMachine? {
        machine.flatMap(program.machine)
    }

    /// The machines the Machines list draws, top to bottom: those the filter shows, in the sort column's order.
    package var shownMachines: [InspectedMachine] {
        let machines = program.machines
        guard query.isActive else { return machines }
        return query.order(
            count: machines.count, text: { InspectFeature.filterText(machines[$0], self) },
            key: { InspectFeature.sortColumns[$1].key(machines[$0], self) }
        ).map { machines[$0] }
    }

    /// The selected machine's records as History draws them, top to bottom.
    package var shownRecords: [InspectorRecord] {
        let label = selectedMachine?.label ?? ""
        return HistorySort.order(selectedMachine?.records ?? [], by: historySort) { record in
            [
                .name(record.event), .name(record.outcome),
                .name(InspectFeature.stateWords(record.after, label: label, self)),
            ]
        }
    }

    /// Whether History's search pattern is being typed: every printable key goes into it.
    package var isTypingSearch: Bool { search?.isEditing ?? false }

    /// The record travelled to, or the newest one when following.
    package var selectedRecord: InspectorRecord? {
        guard let records = selectedMachine?.records else { return nil }
        guard let record else { return records.last }
        return records.first { $0.sequence == record } ?? records.last
    }

    /// Whether the program is gone (it said `bye`, or the connection closed).
    package var programExited: Bool {
        switch program.status {
        case .connecting, .live: false
        case .ended, .lost: true
        }
    }
}
