import StateMachineInspector

/// The inspect screens, in tab order; the raw value is the number key that selects one.
public enum InspectTab: Int, CaseIterable, Hashable, Sendable {
    /// Every machine of the program.
    case machines = 1
    /// The selected machine's records, with time travel.
    case history
    /// The selected machine's graph, its state lit.
    case graph

    /// The tab's title.
    public var title: String {
        switch self {
        case .machines: "Machines"
        case .history: "History"
        case .graph: "Graph"
        }
    }
}

/// What `statetui inspect NAME` shows: the program as its messages built it, the screen, the selected
/// machine and record, the graph's pan, and whether the user is done.
public struct InspectScreenState: Hashable, Sendable {
    /// Where the program's socket is (for the header).
    public var socketPath: String
    /// The program, built only from its messages (``StateMachineInspector/InspectedProgram/apply(_:)``).
    public var program: InspectedProgram
    /// The screen shown.
    public var tab: InspectTab
    /// The id of the selected machine, if any machine is known.
    public var machine: Int?
    /// The sequence number of the record travelled to; `nil` follows the newest.
    public var record: Int?
    /// The graph's first row and column shown.
    public var graphOffset = 0
    /// See ``graphOffset``.
    public var graphColumn = 0
    /// Why the connection failed, when it was not a clean end.
    public var failure: String?
    /// Set when the user quits; the run loop returns once it is.
    public var exit: ExitReason?

    /// The screens before any message from the program at `socketPath`.
    public init(socketPath: String, program: InspectedProgram = InspectedProgram(), tab: InspectTab = .machines) {
        self.socketPath = socketPath
        self.program = program
        self.tab = tab
    }

    /// The selected machine, if known.
    public var selectedMachine: InspectedMachine? {
        machine.flatMap(program.machine)
    }

    /// The record travelled to, or the newest one when following.
    public var selectedRecord: InspectorRecord? {
        guard let records = selectedMachine?.records else { return nil }
        guard let record else { return records.last }
        return records.first { $0.sequence == record } ?? records.last
    }

    /// Whether the program is gone (it said `bye`, or the connection closed).
    public var programExited: Bool {
        switch program.status {
        case .connecting, .live: false
        case .ended, .lost: true
        }
    }
}
