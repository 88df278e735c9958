/// Every state a transition function can reach from an initial state, and every decision it makes there.
///
/// `explore` runs the transition function over every event in every reachable state, breadth-first.
/// The result answers the questions a test asks of a whole machine — which pairs are invalid, which
/// declared states can never be reached, where the machine gets stuck, how to get somewhere — and
/// renders as a Mermaid diagram, a Graphviz graph or a transition table. Output is deterministic:
/// states in discovery order, edges in (state, event) order, so renderings can be checked in and diffed.
///
/// Storage is compact so that million-state machines explore quickly: states are stored once, each
/// (state, event) cell is 32 bits holding the target's position and the verdict, and the index of the
/// states is their positions sorted by hash. When states and events are `Sendable`, a large search uses
/// every core, and finds the same graph as on one thread (``ExplorationWorkers``).
public struct StateGraph<State: Hashable, Event> {
    /// One accepted transition that changed the state or began a new visit.
    public struct Edge {
        /// How the machine moved along an edge.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// `.to`: a new visit began (also `.to(current)`, which is a self-edge).
            case to
            /// `.update`: the same visit holds a new value.
            case update
            /// `.postpone`: the event joined the postponed queue. Only a graph explored with a queue
            /// (``StateGraph/explore(from:events:postponeLimit:maximumStates:transition:)``) has these.
            case postpone

            /// The verdict word of this kind of move.
            public var verdict: Verdict {
                switch self {
                case .to: .to
                case .update: .update
                case .postpone: .postpone
                }
            }
        }

        /// The state the event arrived in.
        public var from: State
        /// The event.
        public var event: Event
        /// The state after the transition.
        public var to: State
        /// Whether the transition began a new visit or updated the current one.
        public var kind: Kind

        /// Creates an edge from `from` to `to` on `event`.
        public init(from: State, event: Event, to: State, kind: Kind) {
            self.from = from
            self.event = event
            self.to = to
            self.kind = kind
        }
    }

    /// A (state, event) pair the transition function declared impossible, with its reason.
    public struct InvalidPair {
        /// The state the event arrived in.
        public var state: State
        /// The event that should have been impossible.
        public var event: Event
        /// The reason given by `.invalid(reason)`.
        public var reason: String

        /// Creates an invalid pair.
        public init(state: State, event: Event, reason: String) {
            self.state = state
            self.event = event
            self.reason = reason
        }
    }

    /// Every reachable state in discovery (breadth-first) order, the initial state first.
    public let states: [State]
    /// The events that were tried in every state, in the order given to `explore`.
    public let events: [Event]
    /// Every pair the transition function answered with `.invalid`, in (state, event) order.
    public let invalid: [InvalidPair]
    /// True when `maximumStates` stopped the search: the graph is partial, which is never an error.
    public let isTruncated: Bool

    /// Index of every explored state's position in `states`.
    @usableFromInline let index: StateIndex
    /// One cell per (state, event), row-major (``GraphCell``): the target's position and kind of move,
    /// the verdict that moved nowhere, or a move to a state not admitted (truncation).
    @usableFromInline let cells: GraphCells

    /// Target of a cell whose verdict moved nowhere (`stay`, `ignore`, `invalid`).
    @usableFromInline static var noTarget: Int32 { -1 }
    /// Target of a cell whose target was not admitted because the state limit was reached.
    @usableFromInline static var beyondLimit: Int32 { -2 }

    @usableFromInline
    init(
        states: [State], events: [Event], invalid: [InvalidPair], isTruncated: Bool, index: StateIndex,
        cells: GraphCells
    ) {
        self.states = states
        self.events = events
        self.invalid = invalid
        self.isTruncated = isTruncated
        self.index = index
        self.cells = cells
    }

    /// The position `cell` moves to, ``noTarget`` or ``beyondLimit``.
    func target(ofCell cell: Int) -> Int32 { GraphCell.target(cells[cell]) }

    /// What the transition function decided for `cell`.
    func verdict(ofCell cell: Int) -> Verdict { GraphCell.verdict(cells[cell]) }

    /// Explores every state reachable from `initial` by sending each of `events` in every state.
    ///
    /// `.to` and `.update` make edges (`.to(current)` is a self-edge), `.stay` and `.ignore` make none,
    /// and `.invalid` makes an ``InvalidPair``. When `maximumStates` states have been found, further new
    /// states are not admitted and ``isTruncated`` is true; the states already admitted are still
    /// explored completely.
    ///
    /// `.postpone` makes no edge here: this graph keeps no queue. Its states are still exactly the
    /// reachable ones, because a retried event is a transition of some event in some reachable state,
    /// and every one of those is explored. To see the queue itself, explore with a `postponeLimit`.
    ///
    /// This search runs on the calling thread: states that are not `Sendable` cannot go to others. When
    /// they and the events are, ``explore(from:events:maximumStates:transition:)-95uit`` is called
    /// instead, and shares large searches among every core.
    @inlinable
    public static func explore(
        from initial: State, events: [Event], maximumStates: Int = 10_000,
        transition: (State, Event) -> Transition<State, Event>
    ) -> StateGraph {
        explore(
            from: initial, events: events, maximumStates: maximumStates, transition: transition,
            postponed: { _, _ in nil })
    }

    /// Every accepted transition that made an edge, in (state, event) order.
    ///
    /// Built from the compact storage on each access, in time proportional to the number of cells.
    public var edges: [Edge] {
        var result: [Edge] = []
        forEachEdge { from, event, to, kind in
            result.append(Edge(from: states[from], event: events[event], to: states[to], kind: kind))
        }
        return result
    }

    /// The number of edges, without building them.
    public var edgeCount: Int {
        var count = 0
        forEachEdge { _, _, _, _ in count += 1 }
        return count
    }

    /// Calls `body` with (from index, event index, to index, kind) for each edge in (state, event) order.
    package func forEachEdge(_ body: (Int, Int, Int, Edge.Kind) -> Void) {
        let width = events.count
        for cell in cells.indices where cells[cell] >= 0 {
            let kind: Edge.Kind
            switch verdict(ofCell: cell) {
            case .to: kind = .to
            case .update: kind = .update
            case .postpone: kind = .postpone
            case .stay, .ignore, .invalid:
                preconditionFailure(
                    "Internal inconsistency: cell \(cell) has a target but verdict \(verdict(ofCell: cell).word)")
            }
            body(cell / width, cell % width, Int(target(ofCell: cell)), kind)
        }
    }

    /// The members of `declared` that were not reached, in the order given (each reported once).
    ///
    /// Pass `YourState.allCases` to find states the machine declares but can never enter. On a
    /// truncated graph a state may be reachable yet unexplored, so the answer is an upper bound.
    public func unreachable(of declared: some Sequence<State>) -> [State] {
        var reported = Set<State>()
        var result: [State] = []
        for state in declared where index.position(of: state, in: states) == nil && reported.insert(state).inserted {
            result.append(state)
        }
        return result
    }

    /// Reachable states from which no edge leads to another state, in discovery order.
    ///
    /// A state whose transitions only stay, ignore, are invalid or re-enter itself is a dead end.
    /// On a truncated graph, a transition to a state beyond the limit counts as leading elsewhere.
    public var deadEnds: [State] {
        let width = events.count
        var result: [State] = []
        for position in states.indices {
            let row = (position * width)..<((position + 1) * width)
            let leaves = row.contains { cell in
                let next = target(ofCell: cell)
                return next == Self.beyondLimit || (next >= 0 && Int(next) != position)
            }
            if !leaves { result.append(states[position]) }
        }
        return result
    }

    /// The shortest sequence of events from the initial state to the first state satisfying `target`.
    ///
    /// Returns `[]` when the initial state satisfies it and `nil` when no explored state does. Among
    /// equally short paths the one found first by the breadth-first search is returned, so the
    /// answer is deterministic.
    public func shortestPath(to target: (State) -> Bool) -> [Event]? {
        guard let goal = states.firstIndex(where: target) else { return nil }
        // Indices were assigned in discovery order, so the first (state, event) cell naming a state,
        // scanned in order, is the edge the search discovered it through: the breadth-first parent.
        let width = events.count
        var parentCell = [Int32](repeating: -1, count: goal + 1)
        var cell = 0
        while cell < cells.count, parentCell[goal] < 0, goal > 0 {
            let next = Int(self.target(ofCell: cell))
            if next > 0, next <= goal, parentCell[next] < 0 {
                parentCell[next] = Int32(cell)
            }
            cell += 1
        }
        var path: [Event] = []
        var position = goal
        while position != 0 {
            let through = Int(parentCell[position])
            precondition(through >= 0, "Internal inconsistency: state \(position) has no breadth-first parent")
            path.append(events[through % width])
            position = through / width
        }
        return path.reversed()
    }

    /// What the transition function decided for the state at `stateIndex` and the event at `eventIndex`.
    public func verdict(stateIndex: Int, eventIndex: Int) -> Verdict {
        verdict(ofCell: stateIndex * events.count + eventIndex)
    }

    /// The position of `state` in ``states``, or nil when it was not reached.
    public func position(of state: State) -> Int? {
        index.position(of: state, in: states)
    }

    /// An estimate of the bytes this graph retains, from the capacities of its storage.
    ///
    /// Counts the state array, the cells (32 bits per (state, event): target and verdict), the state
    /// index (32 bits a state) and the invalid pairs. Boxed payloads inside a state (strings, arrays) are
    /// not counted.
    public var approximateMemoryBytes: Int {
        let stateBytes = states.capacity * MemoryLayout<State>.stride
        let cellBytes = cells.capacity * MemoryLayout<Int32>.stride
        let indexBytes = index.bytes
        let invalidBytes = invalid.capacity * MemoryLayout<InvalidPair>.stride
        return stateBytes + cellBytes + indexBytes + invalidBytes
    }
}

extension StateGraph: Sendable where State: Sendable, Event: Sendable {}

extension StateGraph where State: Sendable, Event: Sendable {
    /// Explores every state reachable from `initial` as
    /// ``explore(from:events:maximumStates:transition:)-4rz00`` does, sharing large searches among every
    /// core; the graph is the same as on one thread.
    ///
    /// `transition` is called on the calling thread only, so it may capture anything; the other cores
    /// hash the successors, look them up in the visited set and settle the new ones, and they join in
    /// only once a level of the search holds enough states to gain from them (a few hundred), so small
    /// machines are explored on the calling thread alone. To call `transition` on every core too, pass
    /// it `@Sendable` with ``explore(from:events:maximumStates:workers:transition:)``.
    @inlinable
    public static func explore(
        from initial: State, events: [Event], maximumStates: Int = 10_000,
        transition: (State, Event) -> Transition<State, Event>
    ) -> StateGraph {
        explore(
            from: initial, events: events, maximumStates: maximumStates, lookUpWorkers: .allCores,
            transition: transition)
    }

    /// The search of ``explore(from:events:maximumStates:transition:)-4rz00`` with its look-ups on `workers`
    /// threads and `transition` on the calling one, for tests that compare worker counts.
    @inlinable
    package static func explore(
        from initial: State, events: [Event], maximumStates: Int = 10_000, lookUpWorkers workers: ExplorationWorkers,
        transition: (State, Event) -> Transition<State, Event>
    ) -> StateGraph {
        explore(
            from: initial, events: events, maximumStates: maximumStates, workers: workers.count,
            spreadsTransitions: false, transition: transition, postponed: { _, _ in nil })
    }

    /// Explores every state reachable from `initial` as
    /// ``explore(from:events:maximumStates:transition:)-4rz00`` does, on `workers` threads, which all call
    /// `transition`.
    ///
    /// The graph is the same whatever the number of workers: the same states in the same order, the
    /// same edges, invalid pairs, dead ends and shortest paths. `transition` is called from several
    /// threads at once, so it must be `@Sendable`; levels of the search too small to gain from sharing
    /// are explored on the calling thread.
    @inlinable
    public static func explore(
        from initial: State, events: [Event], maximumStates: Int = 10_000, workers: ExplorationWorkers,
        transition: @Sendable (State, Event) -> Transition<State, Event>
    ) -> StateGraph {
        explore(
            from: initial, events: events, maximumStates: maximumStates, workers: workers.count,
            spreadsTransitions: true, transition: transition, postponed: { _, _ in nil })
    }
}
extension StateGraph.Edge: Sendable where State: Sendable, Event: Sendable {}
extension StateGraph.Edge: Equatable where Event: Equatable {}
extension StateGraph.Edge: Hashable where Event: Hashable {}
extension StateGraph.InvalidPair: Sendable where State: Sendable, Event: Sendable {}
extension StateGraph.InvalidPair: Equatable where Event: Equatable {}
extension StateGraph.InvalidPair: Hashable where Event: Hashable {}
