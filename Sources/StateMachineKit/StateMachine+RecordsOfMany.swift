import Support

extension StateMachine {
    /// One machine's batch in a feed of many (``records(of:after:)``).
    public struct IndexedRecordBatch: Sendable {
        /// The machine's position in the array given to ``records(of:after:)``.
        public let index: Int
        /// Its records after what the feed handed out before, as ``records(after:)`` would batch them.
        public let batch: RecordBatch

        /// A batch of the machine at `index`.
        public init(index: Int, batch: RecordBatch) {
            self.index = index
            self.batch = batch
        }
    }

    /// One feed for many machines: every record any of `machines` makes after its cursor, in batches, until
    /// the feed's task is cancelled.
    ///
    /// Each element holds one ``IndexedRecordBatch`` for every machine that recorded since the previous
    /// element, in the order of `machines`. It costs one task and one stream however many machines it
    /// follows, where ``records(after:)`` costs one of each per machine: a screen listing thousands of
    /// machines, most of them still, follows them all with one reader. A machine pays nothing for the feed
    /// until it records, then tells it once however many records follow before the feed reads them. The feed
    /// does not keep the machines alive; one that is gone is left out. Batches follow
    /// ``records(after:)``'s rules: a batch is every record after the machine's cursor still in its
    /// ``history``, and ``RecordBatch/missed`` counts those that fell out of it first.
    ///
    /// ```swift
    /// for await changed in TransferMachine.Engine.records(of: engines) {
    ///     for indexed in changed { rows[indexed.index].take(indexed.batch) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - machines: the machines to follow.
    ///   - cursors: for each machine, the ``Record/sequence`` of the newest record already seen; nil reads
    ///     every machine from its first record.
    public static func records(of machines: [StateMachine], after cursors: [Int]? = nil)
        -> AsyncStream<[IndexedRecordBatch]>
    {
        let cursors = cursors ?? Array(repeating: 0, count: machines.count)
        precondition(
            cursors.count == machines.count,
            "records(of:after:) takes one cursor per machine: \(machines.count) machines, \(cursors.count) cursors")
        precondition(cursors.allSatisfy { $0 >= 0 }, "records(of:after:) takes cursors of 0 or more")
        var followed: [Int: (StateMachine?, Int)] = [:]
        for (index, machine) in machines.enumerated() { followed[index] = (machine, cursors[index]) }
        let feed = RecordsOfMany(followed)
        return AsyncStream(unfolding: { await feed.next() }, onCancel: { feed.end() })
    }
}

extension StateMachine {
    /// Machines that one change feed follows, more of them added, and others taken out, while it is read: a
    /// screen listing thousands of rows makes each row's machine only when the row is first used, and adds it
    /// here; a headless copy adds each file's machine as it starts and removes it once it settled.
    ///
    /// ``records()`` is ``records(of:after:)`` over every machine in the set, added before or after the feed
    /// began, each from its first record; a batch's ``IndexedRecordBatch/index`` is what ``add(_:after:)``
    /// returned for the machine: the machines' places in the order they were added, never given twice, so an
    /// index read from a feed names one machine even after it was removed. The set does not keep the machines
    /// alive, and holds (as its feeds do) only the machines in it: a set that machines pass through stays as
    /// small as the number in it at once.
    ///
    /// ```swift
    /// let machines = TransferMachine.Engine.MachineSet()
    /// let feed = machines.records()
    /// let row = machines.add(engine)  // the feed reads its records from the first one
    /// machines.remove(row)  // and no more of them
    /// ```
    public final class MachineSet: Sendable {
        // Inlinable, with what it reaches, so that a client's set is specialised for its own machine types: not
        // specialised, each add, remove and read of a set asked the runtime for its generic types' layouts (a
        // headless tree copy, whose every file's machine passes through a set, asked about 60 times a file).
        @usableFromInline
        struct Members {
            /// The machines in the set, by index, each with its starting cursor: the feeds read its records after
            /// it.
            @usableFromInline var machines: [Int: (machine: WeakMachine, start: Int)] = [:]
            /// The index the next machine added gets.
            @usableFromInline var nextIndex = 0
            /// The feeds reading the set, each told of every machine added or removed.
            @usableFromInline var feeds: [WeakFeed] = []

            @usableFromInline init() {}
        }

        @usableFromInline
        struct WeakMachine: Sendable {
            @usableFromInline weak var machine: StateMachine?

            @inlinable init(machine: StateMachine?) { self.machine = machine }
        }

        @usableFromInline
        struct WeakFeed: Sendable {
            @usableFromInline weak var feed: RecordsOfMany<State, Event>?

            @inlinable init(feed: RecordsOfMany<State, Event>?) { self.feed = feed }
        }

        @usableFromInline let members = Locked(Members())

        /// An empty set.
        public init() {}

        /// Adds `machine`; every feed of the set, now and later, reads its records after `sequence`: by default
        /// from the first one; a machine restored from a ``Snapshot`` is read from the oldest record it holds
        /// (`snapshot.history.first.sequence - 1`), so the records before the snapshot are not counted as
        /// ``RecordBatch/missed``. A `sequence` past the machine's newest record (``StateMachine/sequence`` + 1)
        /// skips the record of an event about to be sent: no feed names the machine, or even wakes, for a record at or
        /// before `sequence`. Returns its index in the feeds' batches: one more than the index returned before.
        @inlinable @discardableResult
        public func add(_ machine: StateMachine, after sequence: Int = 0) -> Int {
            precondition(sequence >= 0, "MachineSet.add(_:after:) takes a sequence of 0 or more, got \(sequence)")
            return members.withLock { members in
                let index = members.nextIndex
                members.nextIndex += 1
                members.machines[index] = (WeakMachine(machine: machine), sequence)
                members.feeds.removeAll { $0.feed?.isEnded ?? true }
                for entry in members.feeds { entry.feed?.follow(machine, at: index, after: sequence) }
                return index
            }
        }

        /// Takes the machine at `index` out of the set: no feed of the set reads its records from now on (a batch
        /// of it a feed read already is still handed out), and the set and its feeds forget it. An index not in the
        /// set (never given, or removed already) is ignored.
        @inlinable
        public func remove(_ index: Int) {
            members.withLock { members in
                guard members.machines.removeValue(forKey: index) != nil else { return }
                members.machines.releaseRoomOnceSparse()
                for entry in members.feeds { entry.feed?.unfollow(index) }
            }
        }

        /// How many machines the set has room for without growing (for tests: room is given back as they leave).
        var capacity: Int { members.withLock { $0.machines.capacity } }

        /// How many machines each live feed of the set has room for (for tests).
        var feedCapacities: [Int] { members.withLock { $0.feeds.compactMap { $0.feed?.capacity } } }

        /// How many machines were added, removed ones included: the index the next one gets.
        public var count: Int { members.withLock { $0.nextIndex } }

        /// How many machines are in the set now.
        public var memberCount: Int { members.withLock { $0.machines.count } }

        /// One feed of every machine in the set, added before or after it began: ``records(of:after:)`` over a
        /// set that changes.
        @inlinable
        public func records() -> AsyncStream<[IndexedRecordBatch]> {
            let feed = follow()
            return AsyncStream(unfolding: { await feed.next() }, onCancel: { feed.end() })
        }

        /// A new feed of every machine in the set, told of every one added or removed from now on.
        @inlinable
        func follow() -> RecordsOfMany<State, Event> {
            members.withLock { members in
                // Made under the set's lock: a machine added meanwhile is followed once, in its place.
                let feed = RecordsOfMany(members.machines.mapValues { ($0.machine.machine, $0.start) })
                members.feeds.append(WeakFeed(feed: feed))
                return feed
            }
        }

        /// One feed of which machines in the set recorded, without their records: each element the indices (as
        /// ``add(_:after:)`` returned them, ascending) of the machines that recorded since the previous element,
        /// each named once however many records it made, until the feed's task is cancelled.
        ///
        /// For a reader that reads what it needs of a changed machine itself (its ``StateMachine/state``): it follows
        /// the set as ``records()`` does, one task and one stream for every machine, a machine added before or after
        /// it began named from its first record, one taken out named no more, but copies no record out of the
        /// machines' histories. A change after an element names the machine again in a later one.
        ///
        /// ```swift
        /// for await changed in machines.changes() {
        ///     for index in changed { rows[index].show(engines[index].state) }
        /// }
        /// ```
        @inlinable
        public func changes() -> AsyncStream<[Int]> {
            let feed = follow()
            return AsyncStream(unfolding: { await feed.nextChanged() }, onCancel: { feed.end() })
        }
    }
}

extension StateMachine.IndexedRecordBatch: Equatable where Event: Equatable {}
extension StateMachine.IndexedRecordBatch: Hashable where Event: Hashable {}

/// A feed of many machines watching one machine: told once, after that machine's lock, when it makes a record
/// after the feed's cursor.
@usableFromInline
struct RecordWatcher: Sendable {
    @usableFromInline let waker: RecordsWaker
    @usableFromInline let index: Int
    /// The feed's cursor: a record numbered at or below it is one the feed would not name (a cursor a machine has
    /// not reached yet, ``StateMachine/MachineSet/add(_:after:)``), so it tells the feed nothing.
    @usableFromInline let after: Int

    @usableFromInline
    init(waker: RecordsWaker, index: Int, after: Int) {
        self.waker = waker
        self.index = index
        self.after = after
    }
}

/// Which of a feed's machines recorded since it last looked, and the feed's one waiting reader.
@usableFromInline
final class RecordsWaker: Sendable {
    private struct Marks {
        /// The machines marked and not yet taken.
        var marked: Set<Int> = []
        var parked: CheckedContinuation<Void, Never>?
        var ended = false
    }

    /// A lock whose waiters sleep (``SleepingLock``): every machine of a feed marks here from whichever thread
    /// records, and on a machine with few cores a `Mutex`'s waiters spun while its holder waited for a core,
    /// 1% of a copy of 10,000 empty files.
    private let marks = SleepingLock(Marks())

    @usableFromInline init() {}

    /// Whether the feed has ended.
    @usableFromInline var isEnded: Bool { marks.withLock { $0.ended } }

    /// Machine `index` recorded: marks it and wakes the reader if it waits.
    @usableFromInline
    func recorded(_ index: Int) {
        let parked = marks.withLock { marks -> CheckedContinuation<Void, Never>? in
            guard !marks.ended else { return nil }
            marks.marked.insert(index)
            defer { marks.parked = nil }
            return marks.parked
        }
        parked?.resume()
    }

    /// Machine `index` left the feed: a mark it left is dropped.
    @usableFromInline func forget(_ index: Int) {
        _ = marks.withLock { $0.marked.remove(index) }
    }

    /// The machines marked since the last call, in ascending order, waiting for one when none is; nil once
    /// the feed has ended.
    @usableFromInline func take() async -> [Int]? {
        while true {
            let taken = marks.withLock { marks -> Set<Int>?? in
                if marks.ended { return .some(nil) }
                guard !marks.marked.isEmpty else { return nil }
                // The marks after these start with as much room as these took: an empty set grew step by step,
                // its table rebuilt at each step, three times a file of a tree copy.
                var taken = Set<Int>(minimumCapacity: marks.marked.count)
                swap(&taken, &marks.marked)
                return .some(taken)
            }
            // Sorted once the lock is given back: the machines that record meanwhile do not wait for it.
            if let taken { return taken?.sorted() }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let waits = marks.withLock { marks in
                        guard !marks.ended && marks.marked.isEmpty else { return false }
                        marks.parked = continuation
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            } onCancel: {
                end()
            }
        }
    }

    /// Ends the feed: the reader finishes, and marks are ignored from now on.
    @usableFromInline func end() {
        let parked = marks.withLock { marks -> CheckedContinuation<Void, Never>? in
            marks.ended = true
            defer { marks.parked = nil }
            return marks.parked
        }
        parked?.resume()
    }
}

/// The reading side of ``StateMachine/records(of:after:)``: the machines (weakly), their cursors, and the waker
/// their watchers tell. A ``StateMachine/MachineSet`` adds machines to it, and takes them out, while it is read.
///
/// Inlinable, as ``StateMachine/MachineSet`` is, so that a client's feed is specialised for its machine types.
@usableFromInline
final class RecordsOfMany<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// A machine followed, and its cursor: moved only by the feed's one reader, one `next()` at a time, under the
    /// lock of ``followed``. A class, so that reading a machine copies a reference, where a structure held in the
    /// table copied its weak reference (a side-table operation) each time it was read and each time its cursor was
    /// written back, 2% of a copy of 10,000 empty files.
    @usableFromInline
    final class Followed: @unchecked Sendable {
        // `@unchecked Sendable`: `cursor` is read and written only under the lock of the feed's `followed`.
        @usableFromInline weak let machine: StateMachine<State, Event>?
        @usableFromInline var cursor: Int

        @inlinable init(machine: StateMachine<State, Event>?, cursor: Int) {
            self.machine = machine
            self.cursor = cursor
        }
    }

    /// The machines followed, by index.
    @usableFromInline let followed: Locked<[Int: Followed]>
    @usableFromInline let waker = RecordsWaker()

    /// Watches every machine: one with records after its cursor is marked to be read at once, the others
    /// watched until they record. A machine gone already (nil) keeps its index and is never read.
    @inlinable
    init(_ machines: [Int: (machine: StateMachine<State, Event>?, cursor: Int)]) {
        followed = Locked(machines.mapValues { Followed(machine: $0.machine, cursor: $0.cursor) })
        for (index, entry) in machines {
            if let machine = entry.machine { watch(machine, at: index, after: entry.cursor) }
        }
    }

    /// Follows `machine` too, at `index` (one no machine of this feed had), from the record after `cursor`.
    @inlinable
    func follow(_ machine: StateMachine<State, Event>, at index: Int, after cursor: Int) {
        followed.withLock { $0[index] = Followed(machine: machine, cursor: cursor) }
        watch(machine, at: index, after: cursor)
    }

    /// Follows the machine at `index` no more: its watcher is taken out of it, its mark dropped.
    @inlinable
    func unfollow(_ index: Int) {
        let machine = followed.withLock { followed in
            defer { followed.releaseRoomOnceSparse() }
            return followed.removeValue(forKey: index)?.machine
        }
        let waker = self.waker
        machine?.core.withLock { core in
            core.live.readers.watchers.removeAll { $0.waker === waker && $0.index == index }
        }
        waker.forget(index)
    }

    /// Marks machine `index` at once when it has records after `cursor`; otherwise watches it until it records.
    @inlinable
    func watch(_ machine: StateMachine<State, Event>, at index: Int, after cursor: Int) {
        let waker = self.waker
        let behind = machine.core.withLock { core in
            if core.sequence > cursor { return true }
            core.live.readers.watchers.append(RecordWatcher(waker: waker, index: index, after: cursor))
            return false
        }
        if behind { waker.recorded(index) }
    }

    /// Whether the feed has ended (its reader is gone or was cancelled).
    @inlinable var isEnded: Bool { waker.isEnded }

    /// How many machines the feed has room for without growing.
    var capacity: Int { followed.withLock { $0.capacity } }

    /// The batches of the machines that recorded since the last call, waiting for one; nil once ended.
    @inlinable
    func next() async -> [StateMachine<State, Event>.IndexedRecordBatch]? {
        while let indices = await waker.take() {
            let batches = indices.compactMap(read)
            if !batches.isEmpty { return batches }
        }
        end()
        return nil
    }

    /// The indices of the machines that recorded since the last call, ascending, waiting for one; nil once ended.
    /// Each one's cursor moves past its records as ``next()`` moves it, but none is copied
    /// (``StateMachine/MachineSet/changes()``).
    @inlinable
    func nextChanged() async -> [Int]? {
        while let indices = await waker.take() {
            let changed = indices.filter { advance($0) { _, _ in () } != nil }
            if !changed.isEmpty { return changed }
        }
        end()
        return nil
    }

    /// Machine `index`'s records after its cursor, if any, and its watcher armed again in the same step, so a
    /// record made after this read tells the feed. A machine no longer followed (gone, or taken out) is not read.
    @inlinable
    func read(_ index: Int) -> StateMachine<State, Event>.IndexedRecordBatch? {
        advance(index) { core, cursor in core.batch(after: cursor) }
            .map { StateMachine.IndexedRecordBatch(index: index, batch: $0) }
    }

    /// When machine `index` recorded after its cursor: what `take` reads of it (given the cursor) under its lock,
    /// its cursor moved to its newest record; nil otherwise. Either way its watcher is armed again in the same
    /// step, so a record made after this tells the feed. A machine no longer followed is not read.
    @inlinable
    func advance<Taken>(
        _ index: Int, taking take: (StateMachine<State, Event>.Core, _ cursor: Int) -> Taken
    ) -> Taken? {
        guard let (entry, cursor) = followed.withLock({ $0[index].map { ($0, $0.cursor) } }),
            let machine = entry.machine
        else { return nil }
        let waker = self.waker
        let read = machine.core.withLock { core -> (Taken, Int)? in
            core.live.readers.watchers.append(
                RecordWatcher(waker: waker, index: index, after: max(cursor, core.sequence)))
            return core.sequence > cursor ? (take(core, cursor), core.sequence) : nil
        }
        guard let (taken, sequence) = read else { return nil }
        // Moved only while it is still followed: a machine taken out meanwhile is not brought back.
        followed.withLock { followed in
            if followed[index] === entry { entry.cursor = sequence }
        }
        return taken
    }

    /// Ends the feed and takes its watchers out of every machine still there.
    @inlinable
    func end() {
        waker.end()
        let waker = self.waker
        for entry in followed.withLock({ $0.values.map(\.machine) }) {
            entry?.core.withLock { core in core.live.readers.watchers.removeAll { $0.waker === waker } }
        }
    }
}

extension Dictionary {
    /// Gives the table's room back once a quarter of it is used, and all of it once it is empty. A dictionary
    /// keeps its capacity as entries go: a set that a burst of machines passed through (a dashboard starting
    /// every row at once) kept room for the burst, 20 bytes a machine in the set and as much in each of its
    /// feeds, for as long as it lived. A table rebuilt after losing three quarters of its entries costs each
    /// removal a constant on average; a small one is rebuilt only once empty, which copies nothing (before, the
    /// 16 shards of a copy dashboard's journal kept room for their last few entries each, 247 KB for none).
    @inlinable
    package mutating func releaseRoomOnceSparse() {
        if isEmpty {
            if capacity > 0 { self = [:] }
            return
        }
        guard capacity > 64, count <= capacity / 4 else { return }
        var smaller = Self(minimumCapacity: count)
        for (key, value) in self { smaller[key] = value }
        self = smaller
    }
}
