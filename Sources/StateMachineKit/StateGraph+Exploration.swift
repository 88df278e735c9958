import Synchronization

/// The breadth-first search behind every exploration, a batch of states at a time.
///
/// A batch is a run of states already found and not yet explored, in order (at most about 65 536 cells
/// of (state, event)). It is explored in two steps:
/// 1. **Expand**, a chunk of the batch at a time: each state meets each event, and a verdict with no
///    target is its cell's final value; then each successor is looked up in the shared ``VisitedTable``,
///    and when it is new there, placed as pending under the cell that found it. The look-ups run on every
///    worker; the decisions too when `transition` may be called from other threads, else on the calling
///    thread before them.
/// 2. **Number** (on the calling thread): the batch's cells are walked in (state, event) order, and each
///    pending state receives the next position the first time a cell names it; its table slot is
///    rewritten to that position.
/// The workers are the calling thread and an ``ExplorationCrew`` of helper threads, started at the first
/// batch large enough to share and kept until the search ends.
/// A one-thread breadth-first search numbers a new state when the first (state, event) cell reaches it,
/// so positions, edges, invalid pairs and truncation come out the same whatever the number of workers
/// and however the threads raced for the table's slots.
extension StateGraph {
    /// The search on the calling thread alone, for states that are not sendable.
    @inlinable
    static func explore(
        from initial: State, events: [Event], maximumStates: Int,
        transition: (State, Event) -> Transition<State, Event>, postponed: (State, Event) -> State?
    ) -> StateGraph {
        explore(
            from: initial, events: events, maximumStates: maximumStates, workers: 1, spreadsTransitions: false,
            transition: transition, postponed: postponed)
    }

    /// The fewest cells a batch must have to be shared with the exploration's crew of helper threads
    /// (``ExplorationCrew``). A helper that watches for work takes its first task within a microsecond,
    /// but one asleep takes tens of microseconds to wake, and the calling thread does a small batch alone
    /// in that time. When helpers were woken for each batch, sharing gained only from about 8 192 cells;
    /// with the crew, sharing batches from 1 024 cells (instead of 4 096) took the torus of
    /// `make bench` from 0.23 to 0.20 s on two cores, the levels left to one thread falling from 62 to 4 ms.
    @inlinable static var sharedBatchCells: Int { 1024 }

    /// The search behind every exploration. `postponed` names the node a `.postpone` leads to (nil:
    /// none), and is only asked on a `.postpone`, so machines that never postpone pay nothing for it.
    ///
    /// With more than one worker, states and events go to other threads, so the entries that pass
    /// `workers > 1` take sendable ones; `transition` and `postponed` are called from several threads at
    /// once only when `spreadsTransitions` is true, and those entries take them `@Sendable`.
    @inlinable
    static func explore(
        from initial: State, events: [Event], maximumStates: Int, workers: Int, spreadsTransitions: Bool,
        transition: (State, Event) -> Transition<State, Event>, postponed: (State, Event) -> State?
    ) -> StateGraph {
        precondition(maximumStates >= 1, "StateGraph.explore: maximumStates must be at least 1, got \(maximumStates)")
        precondition(workers >= 1, "StateGraph.explore: workers must be at least 1, got \(workers)")
        let limit = Swift.min(maximumStates, GraphCell.maximumStates)
        let width = events.count
        let table = VisitedTable(minimumCount: Swift.min(limit, 4096))
        table.placeFirst(fragment: VisitedTable.fragment(initial, seeded: Hasher()))
        var states: [State] = [initial]
        states.reserveCapacity(Swift.min(limit, 4096))
        let cells = GraphCells()
        var invalid: [InvalidPair] = []
        var isTruncated = false
        let batchStateLimit = Swift.max(1, (1 << 16) / Swift.max(width, 1))
        let scratch = ExplorationScratch<State, Event>()
        var cursor = 0
        var crew: ExplorationCrew?
        defer { crew?.finish() }
        return withoutActuallyEscaping(transition) { transition in
            withoutActuallyEscaping(postponed) { postponed in
                while cursor < states.count {
                    let batchStates = Swift.min(states.count &- cursor, batchStateLimit)
                    let batchCells = batchStates &* width
                    let admitting = states.count < limit
                    let shared = workers > 1 && batchCells >= sharedBatchCells
                    if shared && crew == nil { crew = ExplorationCrew(helpers: workers &- 1) }
                    if admitting { table.reserve(batchCells, crew: crew) }
                    let chunkSize = shared ? Swift.max(64, Swift.min(512, batchStates / (workers &* 4))) : batchStates
                    let chunkCount = (batchStates &+ chunkSize &- 1) / chunkSize
                    scratch.reserve(cells: batchCells, chunks: chunkCount)
                    let cellBase = cells.extend(by: batchCells)
                    expand(
                        states, first: cursor, count: batchStates, events: events, into: cells.base + cellBase,
                        chunkSize: chunkSize, chunkCount: chunkCount, crew: shared ? crew : nil,
                        spreadsTransitions: spreadsTransitions, admitting: admitting, table: table, scratch: scratch,
                        transition: transition,
                        postponed: postponed)
                    for chunk in 0..<chunkCount where !scratch.invalid[chunk].isEmpty {
                        invalid.append(contentsOf: scratch.invalid[chunk])
                        scratch.invalid[chunk] = []
                    }
                    number(
                        cells: cells.base + cellBase, count: batchCells, states: &states, limit: limit, table: table,
                        scratch: scratch, isTruncated: &isTruncated)
                    cursor &+= batchStates
                }
                return graph(
                    states: states, events: events, invalid: invalid, isTruncated: isTruncated, table: table,
                    cells: cells)
            }
        }
    }

    /// Step 1 for one batch: the `count` states from `first` meet every event, a chunk at a task, their
    /// verdicts written into the batch's `cells`, and the successors are looked up. With a `crew` the
    /// look-ups are shared with it, and the decisions too when `spreadsTransitions`; otherwise `transition`
    /// and `postponed` are called on the calling thread alone.
    @inlinable
    static func expand(
        _ states: [State], first: Int, count: Int, events: [Event], into cells: UnsafeMutablePointer<Int32>,
        chunkSize: Int, chunkCount: Int, crew: ExplorationCrew?, spreadsTransitions: Bool, admitting: Bool,
        table: VisitedTable, scratch: ExplorationScratch<State, Event>,
        transition: @escaping (State, Event) -> Transition<State, Event>,
        postponed: @escaping (State, Event) -> State?
    ) {
        // Escaping for the batch that holds them only while this call lasts (the caller's
        // `withoutActuallyEscaping`).
        states.withUnsafeBufferPointer { statesBuffer in
            events.withUnsafeBufferPointer { eventsBuffer in
                let lookUp = SuccessorLookup(
                    states: statesBuffer, first: first, count: count, width: events.count, cells: cells,
                    chunkSize: chunkSize, admitting: admitting, table: table, scratch: scratch)
                let batch = ExplorationBatch(
                    lookUp: lookUp, events: eventsBuffer, scratch: scratch, transition: transition,
                    postponed: postponed)
                if crew != nil && !spreadsTransitions {
                    for chunk in 0..<chunkCount { batch.decide(chunk: chunk) }
                    runAll(lookUp, count: chunkCount, crew: crew)
                } else {
                    runAll(batch, count: chunkCount, crew: crew)
                }
            }
        }
    }

    /// The explored graph: the visited table becomes the index of the states (its slots kept, its working
    /// memory let go) and the cells are trimmed to their count.
    @inlinable
    static func graph(
        states: [State], events: [Event], invalid: [InvalidPair], isTruncated: Bool, table: VisitedTable,
        cells: GraphCells
    ) -> StateGraph {
        let explored = table.explored()
        let slotBits = table.slotBits
        table.removeAll()
        cells.trim()
        return StateGraph(
            states: states, events: events, invalid: invalid, isTruncated: isTruncated,
            index: StateIndex(explored: explored, slotBits: slotBits), cells: cells)
    }

    /// Step 2 for one batch, on the calling thread: walks its `count` cells in order and gives each pending
    /// state the next position the first time a cell names it, or refuses it once `limit` states are
    /// admitted, and rewrites the table slot the state was pending in to say so.
    @inlinable
    static func number(
        cells: UnsafeMutablePointer<Int32>, count: Int, states: inout [State], limit: Int, table: VisitedTable,
        scratch: ExplorationScratch<State, Event>, isTruncated: inout Bool
    ) {
        let numbered = scratch.numbered
        let successors = scratch.successors
        let pendingSlots = scratch.slots
        let fragments = scratch.fragments
        let slots = table.slots
        numbered.update(repeating: -1, count: count)
        // Room for every state the batch may admit, grown as an append would grow it, so that each append
        // below only stores.
        let room = Swift.min(count, Swift.max(0, limit &- states.count))
        if states.capacity < states.count &+ room {
            states.reserveCapacity(Swift.max(states.capacity &* 2, states.count &+ room))
        }
        var placed = 0
        defer { table.count &+= placed }
        for cell in 0..<count {
            let value = cells[cell]
            guard let (pending, kind) = GraphCell.pending(of: value) else {
                if GraphCell.isBeyondLimit(value) { isTruncated = true }
                continue
            }
            var position = numbered[pending]
            if position == -1 {
                placed &+= 1
                let entry: UInt32
                if states.count < limit {
                    position = Int32(truncatingIfNeeded: states.count)
                    entry = UInt32(truncatingIfNeeded: states.count &+ 1)
                    states.append((successors + pending).move())
                } else {
                    position = -2
                    entry = VisitedTable.refusedFlag
                    (successors + pending).deinitialize(count: 1)
                }
                numbered[pending] = position
                // Stored without reading the slot first: its hash bits are the fragment of the cell that
                // placed the state, so the core need not wait for the slot's line.
                let word = UInt64(fragments[pending]) << 32 | UInt64(entry)
                slots[Int(pendingSlots[pending])].store(word, ordering: .relaxed)
            }
            if position >= 0 {
                cells[cell] = GraphCell.target(Int(position), kind: kind)
            } else {
                cells[cell] = GraphCell.beyondLimit(kind: kind)
                isTruncated = true
            }
        }
    }
}

/// Buffers a search keeps from batch to batch, indexed by a cell's place in its batch.
@usableFromInline
final class ExplorationScratch<State: Hashable, Event>: @unchecked Sendable {
    // Unchecked because the buffers are raw: during a batch each place is written only by the worker
    // that claimed the table slot naming it (`successors`, `slots`) or that owns the chunk (`invalid`),
    // and read by others only after that claim was published; between batches one thread uses them.

    /// The successor a pending state was found as, at the cell that placed it; moved out when numbered.
    @usableFromInline var successors: UnsafeMutablePointer<State>
    /// The table slot of each pending state.
    @usableFromInline var slots: UnsafeMutablePointer<Int32>
    /// The hash bits of each successor.
    @usableFromInline var fragments: UnsafeMutablePointer<UInt32>
    /// While numbering: the position each pending state received, -1 before it, -2 when refused.
    @usableFromInline var numbered: UnsafeMutablePointer<Int32>
    /// The invalid pairs each chunk found, in (state, event) order.
    @usableFromInline var invalid: UnsafeMutablePointer<[StateGraph<State, Event>.InvalidPair]>
    @usableFromInline var cellCapacity = 0
    @usableFromInline var chunkCapacity = 0

    @inlinable
    init() {
        successors = .allocate(capacity: 0)
        slots = .allocate(capacity: 0)
        numbered = .allocate(capacity: 0)
        fragments = .allocate(capacity: 0)
        invalid = .allocate(capacity: 0)
    }

    deinit {
        successors.deallocate()
        slots.deallocate()
        numbered.deallocate()
        fragments.deallocate()
        invalid.deinitialize(count: chunkCapacity)
        invalid.deallocate()
    }

    /// Makes room for a batch of `cells` cells in `chunks` chunks; nothing is pending between batches.
    @inlinable
    func reserve(cells: Int, chunks: Int) {
        if cells > cellCapacity {
            successors.deallocate()
            slots.deallocate()
            numbered.deallocate()
            fragments.deallocate()
            fragments = .allocate(capacity: cells)
            successors = .allocate(capacity: cells)
            slots = .allocate(capacity: cells)
            numbered = .allocate(capacity: cells)
            cellCapacity = cells
        }
        if chunks > chunkCapacity {
            let grown = UnsafeMutablePointer<[StateGraph<State, Event>.InvalidPair]>.allocate(capacity: chunks)
            grown.moveInitialize(from: invalid, count: chunkCapacity)
            (grown + chunkCapacity).initialize(repeating: [], count: chunks &- chunkCapacity)
            invalid.deallocate()
            invalid = grown
            chunkCapacity = chunks
        }
    }
}

/// The decisions of one batch: each of its states meets each event, a chunk of states at a task, and
/// the successors are then looked up (``SuccessorLookup``).
///
/// Sound to send because chunk `c` writes only its own cells, successors and `scratch.invalid[c]`, its
/// look-up is sound to send, and the crew's `run` returns after every chunk, so the caller then sees
/// every write; the entries that send it to other threads take `transition` and `postponed` `@Sendable`.
@usableFromInline
struct ExplorationBatch<State: Hashable, Event>: ConcurrentTasks, @unchecked Sendable {
    @usableFromInline let lookUp: SuccessorLookup<State>
    @usableFromInline let events: UnsafeBufferPointer<Event>
    @usableFromInline let chunkInvalid: UnsafeMutablePointer<[StateGraph<State, Event>.InvalidPair]>
    @usableFromInline let transition: (State, Event) -> Transition<State, Event>
    @usableFromInline let postponed: (State, Event) -> State?

    @inlinable
    init(
        lookUp: SuccessorLookup<State>, events: UnsafeBufferPointer<Event>, scratch: ExplorationScratch<State, Event>,
        transition: @escaping (State, Event) -> Transition<State, Event>,
        postponed: @escaping (State, Event) -> State?
    ) {
        self.lookUp = lookUp
        self.events = events
        self.chunkInvalid = scratch.invalid
        self.transition = transition
        self.postponed = postponed
    }

    @inlinable
    func run(_ task: Int) {
        decide(chunk: task)
        lookUp.run(task)
    }

    /// Every state of chunk `chunk` meets every event: a verdict with no target is its cell's final value,
    /// and a successor is placed at its cell, to be looked up.
    @inlinable
    func decide(chunk: Int) {
        let lookUp = lookUp
        let lower = chunk &* lookUp.chunkSize
        let upper = Swift.min(lower &+ lookUp.chunkSize, lookUp.count)
        let width = events.count
        let cells = lookUp.cells
        let successors = lookUp.successors
        var invalid: [StateGraph<State, Event>.InvalidPair] = []
        for place in lower..<upper {
            let state = lookUp.states[lookUp.first &+ place]
            for eventIndex in 0..<width {
                let cell = place &* width &+ eventIndex
                let event = events[eventIndex]
                let next: State
                let kind: Int32
                switch transition(state, event) {
                case .to(let target, _):
                    next = target
                    kind = GraphCell.toKind
                case .update(let target):
                    next = target
                    kind = GraphCell.updateKind
                case .stay:
                    cells[cell] = GraphCell.stay
                    continue
                case .ignore:
                    cells[cell] = GraphCell.ignore
                    continue
                case .invalid(let reason):
                    invalid.append(StateGraph.InvalidPair(state: state, event: event, reason: reason))
                    cells[cell] = GraphCell.invalid
                    continue
                case .postpone:
                    guard let queued = postponed(state, event) else {
                        cells[cell] = GraphCell.postponedNowhere
                        continue
                    }
                    next = queued
                    kind = GraphCell.postponeKind
                }
                (successors + cell).initialize(to: next)
                cells[cell] = GraphCell.unvisited(kind: kind)
            }
        }
        if !invalid.isEmpty { chunkInvalid[chunk] = invalid }
    }
}

/// What the workers of one batch share to look its successors up in the ``VisitedTable``: read-only views
/// of the explored states, and the places each writes alone.
///
/// Sound to send because chunk `c` writes only its own cells and fragments, a pending state's slot is
/// written by the one worker whose claim of a table slot names it, a successor found again is released
/// only by the worker of its own cell, and a successor another cell placed is read only after its claim
/// was loaded with acquiring order; the crew's `run` returns after every chunk, so the caller then sees
/// every write; and the entries that send it to other threads take sendable states.
@usableFromInline
struct SuccessorLookup<State: Hashable>: ConcurrentTasks, @unchecked Sendable {
    @usableFromInline let states: UnsafeBufferPointer<State>
    /// Position of the batch's first state.
    @usableFromInline let first: Int
    /// How many states the batch explores.
    @usableFromInline let count: Int
    /// Cells a state of the batch has: the number of events.
    @usableFromInline let width: Int
    /// The batch's cells, its first state's first.
    @usableFromInline let cells: UnsafeMutablePointer<Int32>
    @usableFromInline let chunkSize: Int
    /// Whether new states may be placed (the state limit was not reached before this batch).
    @usableFromInline let admitting: Bool
    @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt64>>
    @usableFromInline let mask: Int
    /// ``ExplorationScratch``'s buffers, read here without going through the class.
    @usableFromInline let successors: UnsafeMutablePointer<State>
    @usableFromInline let pendingSlots: UnsafeMutablePointer<Int32>
    @usableFromInline let fragments: UnsafeMutablePointer<UInt32>
    /// The hasher every successor's hash starts from (``VisitedTable/fragment(_:seeded:)``).
    @usableFromInline let seeded = Hasher()

    @inlinable
    init<Event>(
        states: UnsafeBufferPointer<State>, first: Int, count: Int, width: Int, cells: UnsafeMutablePointer<Int32>,
        chunkSize: Int, admitting: Bool, table: VisitedTable, scratch: ExplorationScratch<State, Event>
    ) {
        self.states = states
        self.first = first
        self.count = count
        self.width = width
        self.cells = cells
        self.chunkSize = chunkSize
        self.admitting = admitting
        self.slots = table.slots
        self.mask = table.mask
        self.successors = scratch.successors
        self.pendingSlots = scratch.slots
        self.fragments = scratch.fragments
    }

    @inlinable
    func run(_ task: Int) { lookUp(chunk: task) }

    /// The successors of chunk `chunk` are looked up a group at a time: the group's successors are hashed
    /// first and their slots touched together, so the cache misses of the look-ups overlap instead of
    /// following one another.
    @inlinable
    func lookUp(chunk: Int) {
        let lower = chunk &* chunkSize &* width
        let upper = Swift.min(lower &+ chunkSize &* width, count &* width)
        var touched: UInt64 = 0
        let touchesStates = MemoryLayout<State>.size > 0
        var group = lower
        while group < upper {
            let groupEnd = Swift.min(group &+ 64, upper)
            for cell in group..<groupEnd where GraphCell.isUnvisited(cells[cell]) {
                fragments[cell] = VisitedTable.fragment(successors[cell], seeded: seeded)
            }
            // Loads with nothing between them, so that the core has them all in flight at once.
            for cell in group..<groupEnd where GraphCell.isUnvisited(cells[cell]) {
                touched ^= slots[Int(truncatingIfNeeded: fragments[cell]) & mask].load(ordering: .relaxed)
            }
            // The explored states the words name, touched together the same way: a successor found again
            // is compared with the state at its position, most often the look-up's only other cache miss.
            if touchesStates {
                for cell in group..<groupEnd where GraphCell.isUnvisited(cells[cell]) {
                    let fragment = fragments[cell]
                    let word = slots[Int(truncatingIfNeeded: fragment) & mask].load(ordering: .relaxed)
                    let entry = UInt32(truncatingIfNeeded: word)
                    guard word >> 32 == UInt64(fragment), entry & VisitedTable.pendingFlag == 0, entry != 0 else {
                        continue
                    }
                    touched ^= UInt64(UnsafeRawPointer(states.baseAddress! + Int(entry &- 1)).load(as: UInt8.self))
                }
            }
            for cell in group..<groupEnd where GraphCell.isUnvisited(cells[cell]) {
                cells[cell] = visit(cell: cell, kind: GraphCell.unvisitedKind(cells[cell]))
            }
            group = groupEnd
        }
        // A use of the touched words, so that the loads that bring their slots into the cache stay.
        if touched == 1 { touchedWords.store(touched, ordering: .relaxed) }
    }

    /// The cell for a move of `kind` to the successor placed at batch cell `cell`: its position when
    /// explored, a pending mark when found in this batch (the successor stays placed when this cell
    /// found it first), or beyond the limit.
    @inlinable
    func visit(cell: Int, kind: Int32) -> Int32 {
        let fragment = fragments[cell]
        let hashBits = UInt64(fragment) << 32
        var slot = Int(truncatingIfNeeded: fragment) & mask
        while true {
            var word = slots[slot].load(ordering: .acquiring)
            if word == 0 {
                guard admitting else {
                    (successors + cell).deinitialize(count: 1)
                    return GraphCell.beyondLimit(kind: kind)
                }
                pendingSlots[cell] = Int32(truncatingIfNeeded: slot)
                let claim = hashBits | UInt64(VisitedTable.pendingFlag) | UInt64(cell)
                let result = slots[slot].compareExchange(
                    expected: 0, desired: claim, ordering: .acquiringAndReleasing)
                if result.exchanged { return GraphCell.pending(cell, kind: kind) }
                word = result.original
            }
            if word & 0xFFFF_FFFF_0000_0000 == hashBits {
                let entry = UInt32(truncatingIfNeeded: word)
                if entry & VisitedTable.pendingFlag == 0 {
                    let position = Int(entry) &- 1
                    if states[position] == successors[cell] {
                        (successors + cell).deinitialize(count: 1)
                        return GraphCell.target(position, kind: kind)
                    }
                } else if entry != VisitedTable.refusedFlag {
                    let other = Int(entry & ~VisitedTable.pendingFlag)
                    if successors[other] == successors[cell] {
                        (successors + cell).deinitialize(count: 1)
                        return GraphCell.pending(other, kind: kind)
                    }
                }
            }
            slot = (slot &+ 1) & mask
        }
    }
}

/// Where a look-up stores the words it read only to bring their lines into the cache, in the rare case they
/// combine to 1: a use of them that the compiler cannot drop, made almost never.
@usableFromInline let touchedWords = Atomic<UInt64>(0)
