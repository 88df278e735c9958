/// What a client knows of an inspected program, built only from the messages it read: a pure value that
/// ``apply(_:)`` updates, for screens and scripts to show.
public struct InspectedProgram: Sendable, Hashable {
    /// How the inspection of the program stands.
    public enum Status: Sendable, Hashable {
        /// Nothing read yet.
        case connecting
        /// The program is running and sending.
        case live
        /// The program said `bye`: it stopped inspection or exited.
        case ended
        /// The connection closed without a `bye` (the program was killed or crashed).
        case lost
    }

    /// The program's `hello`, once read.
    public var hello: InspectorHello?
    /// The machines in the order they were registered (stopped ones stay, marked).
    public var machines: [InspectedMachine] = []
    /// How the inspection stands.
    public var status = Status.connecting
    /// How many records each machine keeps, newest last.
    public let recordLimit: Int
    /// How many machines are kept; the oldest stopped ones go first.
    public let machineLimit: Int

    /// An empty program, before any message.
    public init(recordLimit: Int = 256, machineLimit: Int = 1024) {
        self.recordLimit = max(1, recordLimit)
        self.machineLimit = max(1, machineLimit)
    }

    /// The machine with `id`, if known.
    public func machine(_ id: Int) -> InspectedMachine? {
        machines.first { $0.id == id }
    }

    /// Applies one message. A message about an unknown machine changes nothing.
    public mutating func apply(_ message: InspectorMessage) {
        switch message {
        case .hello(let hello):
            self.hello = hello
            status = .live
        case .machine(let machine):
            let inspected = InspectedMachine(machine)
            if let index = machines.firstIndex(where: { $0.id == machine.id }) {
                machines[index] = inspected
            } else {
                machines.append(inspected)
                if machines.count > machineLimit {
                    let index = machines.firstIndex { $0.stopped } ?? 0
                    machines.remove(at: index)
                }
            }
        case .state(let change):
            update(change.machine) { $0.apply(change) }
        case .record(let record):
            let limit = recordLimit
            update(record.machine) { $0.apply(record, limit: limit) }
        case .missed(let missed):
            update(missed.machine) { $0.missed += missed.count }
        case .stopped(let stopped):
            update(stopped.machine) { $0.stopped = true }
        case .bye:
            status = .ended
        case .dropped:
            status = .lost
        }
    }

    /// The connection closed: `lost` unless the program said `bye` first.
    public mutating func disconnected() {
        if status != .ended { status = .lost }
    }

    private mutating func update(_ id: Int, _ change: (inout InspectedMachine) -> Void) {
        if let index = machines.firstIndex(where: { $0.id == id }) { change(&machines[index]) }
    }
}

/// One machine of an ``InspectedProgram``.
public struct InspectedMachine: Sendable, Hashable, Identifiable {
    /// The id the program's inspector gave it.
    public var id: Int
    /// Its label.
    public var label: String
    /// Its state now, described.
    public var state: String
    /// Its visit now.
    public var visit: Int
    /// The newest record's sequence number seen.
    public var sequence: Int
    /// The event of the newest record, described.
    public var lastEvent: String?
    /// How many records with outcome `stale` were seen.
    public var staleCount = 0
    /// How many records with outcome `invalid` were seen.
    public var invalidCount = 0
    /// How many records the program's history overwrote before they were read.
    public var missed = 0
    /// The newest records, oldest first, at most the program's `recordLimit`.
    public var records: [InspectorRecord] = []
    /// The graph the program explored from sample events, if it sent one.
    public var explored: InspectorGraph?
    /// The graph learned from the transitions seen (bounded by ``LearnedGraph/edgeLimit``).
    public var learned: LearnedGraph
    /// Whether it stopped (or the program let it go).
    public var stopped = false

    /// A machine as a `machine` message describes it.
    public init(_ machine: InspectorMachine) {
        id = machine.id
        label = machine.label
        state = machine.state
        visit = machine.visit
        sequence = machine.sequence
        explored = machine.graph
        learned = LearnedGraph(initial: machine.state)
    }

    /// The graph to draw: the explored one when the program sent it, else the learned one.
    public var graph: InspectorGraph { explored ?? learned.graph }

    mutating func apply(_ change: InspectorState) {
        state = change.state
        visit = change.visit
        learned.add(state: change.state)
    }

    mutating func apply(_ record: InspectorRecord, limit: Int) {
        guard record.sequence > sequence else { return }
        sequence = record.sequence
        lastEvent = record.event
        switch record.outcome {
        case "stale": staleCount += 1
        case "invalid": invalidCount += 1
        default: break
        }
        if record.outcome == "moved" || record.outcome == "updated" {
            learned.add(InspectorEdge(from: record.before, event: record.event, to: record.after))
        }
        records.append(record)
        if records.count > limit { records.removeFirst(records.count - limit) }
    }
}

/// A graph grown from the transitions a client saw, in the order it saw them, within fixed bounds.
public struct LearnedGraph: Sendable, Hashable {
    /// The most edges kept; later new edges are counted in ``dropped`` only.
    public static let edgeLimit = 512
    /// The most states kept.
    public static let stateLimit = 256

    /// The states seen, the first one first.
    public private(set) var states: [String]
    /// The distinct transitions seen.
    public private(set) var edges: [InspectorEdge] = []
    /// How many times a state or an edge not kept did not fit (a repeated one counts again).
    public private(set) var dropped = 0
    private var known: Set<InspectorEdge> = []

    /// A graph of the one state the machine was in when first seen.
    public init(initial: String) {
        states = [initial]
    }

    /// The graph in the protocol's shape; `truncated` when something did not fit.
    public var graph: InspectorGraph {
        InspectorGraph(states: states, edges: edges, truncated: dropped > 0)
    }

    /// Adds `state` if it is new and fits.
    public mutating func add(state: String) {
        guard !states.contains(state) else { return }
        guard states.count < Self.stateLimit else {
            dropped += 1
            return
        }
        states.append(state)
    }

    /// Adds `edge` (and its states) if it is new and fits.
    public mutating func add(_ edge: InspectorEdge) {
        guard !known.contains(edge) else { return }
        guard edges.count < Self.edgeLimit else {
            dropped += 1
            return
        }
        add(state: edge.from)
        add(state: edge.to)
        known.insert(edge)
        edges.append(edge)
    }
}
