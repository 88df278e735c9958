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
        let feed = RecordsOfMany(machines, after: cursors)
        return AsyncStream(unfolding: { await feed.next() }, onCancel: { feed.end() })
    }
}

extension StateMachine {
    /// Machines that one change feed follows, more of them added while it is read: a screen listing thousands
    /// of rows makes each row's machine only when the row is first used, and adds it here.
    ///
    /// ``records()`` is ``records(of:after:)`` over every machine added, before or after the feed began, each
    /// from its first record; a batch's ``IndexedRecordBatch/index`` is the machine's position in the order
    /// they were added. The set does not keep the machines alive.
    ///
    /// ```swift
    /// let machines = TransferMachine.Engine.MachineSet()
    /// let feed = machines.records()
    /// let row = machines.add(engine)  // the feed reads its records from the first one
    /// ```
    public final class MachineSet: Sendable {
        private struct Members {
            var machines: [WeakMachine] = []
            /// Each machine's starting cursor: the feeds read its records after this one.
            var starts: [Int] = []
            /// The feeds reading the set, each told of every machine added.
            var feeds: [WeakFeed] = []
        }

        private struct WeakMachine: Sendable {
            weak var machine: StateMachine?
        }

        private struct WeakFeed: Sendable {
            weak var feed: RecordsOfMany<State, Event>?
        }

        private let members = Locked(Members())

        /// An empty set.
        public init() {}

        /// Adds `machine`; every feed of the set, now and later, reads its records after `sequence`: by default
        /// from the first one; a machine restored from a ``Snapshot`` is read from the oldest record it holds
        /// (`snapshot.history.first.sequence - 1`), so the records before the snapshot are not counted as
        /// ``RecordBatch/missed``. Returns its index in the feeds' batches.
        @discardableResult
        public func add(_ machine: StateMachine, after sequence: Int = 0) -> Int {
            precondition(sequence >= 0, "MachineSet.add(_:after:) takes a sequence of 0 or more, got \(sequence)")
            return members.withLock { members in
                members.machines.append(WeakMachine(machine: machine))
                members.starts.append(sequence)
                members.feeds.removeAll { $0.feed?.isEnded ?? true }
                for entry in members.feeds { entry.feed?.follow(machine, after: sequence) }
                return members.machines.count - 1
            }
        }

        /// How many machines were added.
        public var count: Int { members.withLock { $0.machines.count } }

        /// One feed of every machine added, before or after it began: ``records(of:after:)`` over a set that
        /// grows.
        public func records() -> AsyncStream<[IndexedRecordBatch]> {
            let feed = members.withLock { members in
                // Made under the set's lock: a machine added meanwhile is followed once, in its place.
                let feed = RecordsOfMany(members.machines.map(\.machine), after: members.starts)
                members.feeds.append(WeakFeed(feed: feed))
                return feed
            }
            return AsyncStream(unfolding: { await feed.next() }, onCancel: { feed.end() })
        }
    }
}

extension StateMachine.IndexedRecordBatch: Equatable where Event: Equatable {}
extension StateMachine.IndexedRecordBatch: Hashable where Event: Hashable {}

/// A feed of many machines watching one machine: told once, after that machine's lock, when it records.
@usableFromInline
struct RecordWatcher: Sendable {
    @usableFromInline let waker: RecordsWaker
    @usableFromInline let index: Int

    @usableFromInline
    init(waker: RecordsWaker, index: Int) {
        self.waker = waker
        self.index = index
    }
}

/// Which of a feed's machines recorded since it last looked, and the feed's one waiting reader.
@usableFromInline
final class RecordsWaker: Sendable {
    private struct Marks {
        /// The machines marked and not yet taken, in the order they were marked.
        var marked: [Int] = []
        var isMarked: [Bool]
        var parked: CheckedContinuation<Void, Never>?
        var ended = false
    }

    private let marks: Locked<Marks>

    init(count: Int) {
        marks = Locked(Marks(isMarked: Array(repeating: false, count: count)))
    }

    /// One more machine to mark, at the next index.
    func grow() {
        marks.withLock { $0.isMarked.append(false) }
    }

    /// Whether the feed has ended.
    var isEnded: Bool { marks.withLock { $0.ended } }

    /// Machine `index` recorded: marks it and wakes the reader if it waits.
    @usableFromInline
    func recorded(_ index: Int) {
        let parked = marks.withLock { marks -> CheckedContinuation<Void, Never>? in
            guard !marks.ended else { return nil }
            if !marks.isMarked[index] {
                marks.isMarked[index] = true
                marks.marked.append(index)
            }
            defer { marks.parked = nil }
            return marks.parked
        }
        parked?.resume()
    }

    /// The machines marked since the last call, in ascending order, waiting for one when none is; nil once
    /// the feed has ended.
    func take() async -> [Int]? {
        while true {
            let taken = marks.withLock { marks -> [Int]?? in
                if marks.ended { return .some(nil) }
                guard !marks.marked.isEmpty else { return nil }
                var taken: [Int] = []
                swap(&taken, &marks.marked)
                for index in taken { marks.isMarked[index] = false }
                return .some(taken.sorted())
            }
            if let taken { return taken }
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
    func end() {
        let parked = marks.withLock { marks -> CheckedContinuation<Void, Never>? in
            marks.ended = true
            defer { marks.parked = nil }
            return marks.parked
        }
        parked?.resume()
    }
}

/// The reading side of ``StateMachine/records(of:after:)``: the machines (weakly), their cursors, and the waker
/// their watchers tell. A ``StateMachine/MachineSet`` adds machines to it while it is read.
final class RecordsOfMany<State: Hashable & Sendable, Event: Sendable>: Sendable {
    private struct Machine: Sendable {
        weak var machine: StateMachine<State, Event>?
    }

    /// The machines followed and each one's cursor, at the same index; a cursor is read and moved only by the
    /// feed's one reader, one `next()` at a time.
    private struct Followed {
        var machines: [Machine]
        var cursors: [Int]
    }

    private let followed: Locked<Followed>
    private let waker: RecordsWaker

    /// Watches every machine: one with records after its cursor is marked to be read at once, the others
    /// watched until they record. A machine gone already (nil) keeps its index and is never read.
    init(_ machines: [StateMachine<State, Event>?], after cursors: [Int]) {
        followed = Locked(Followed(machines: machines.map { Machine(machine: $0) }, cursors: cursors))
        let waker = RecordsWaker(count: machines.count)
        self.waker = waker
        for (index, machine) in machines.enumerated() {
            if let machine { watch(machine, at: index, after: cursors[index]) }
        }
    }

    /// Follows `machine` too, at the next index, from the record after `cursor`.
    func follow(_ machine: StateMachine<State, Event>, after cursor: Int) {
        let index = followed.withLock { followed in
            followed.machines.append(Machine(machine: machine))
            followed.cursors.append(cursor)
            return followed.machines.count - 1
        }
        waker.grow()
        watch(machine, at: index, after: cursor)
    }

    /// Marks machine `index` at once when it has records after `cursor`; otherwise watches it until it records.
    private func watch(_ machine: StateMachine<State, Event>, at index: Int, after cursor: Int) {
        let waker = self.waker
        let behind = machine.core.withLock { core in
            if core.sequence > cursor { return true }
            core.live.readers.watchers.append(RecordWatcher(waker: waker, index: index))
            return false
        }
        if behind { waker.recorded(index) }
    }

    /// Whether the feed has ended (its reader is gone or was cancelled).
    var isEnded: Bool { waker.isEnded }

    /// The batches of the machines that recorded since the last call, waiting for one; nil once ended.
    func next() async -> [StateMachine<State, Event>.IndexedRecordBatch]? {
        while let indices = await waker.take() {
            let batches = indices.compactMap(read)
            if !batches.isEmpty { return batches }
        }
        end()
        return nil
    }

    /// Machine `index`'s records after its cursor, if any, and its watcher armed again in the same step, so a
    /// record made after this read tells the feed.
    private func read(_ index: Int) -> StateMachine<State, Event>.IndexedRecordBatch? {
        let (machine, cursor) = followed.withLock { ($0.machines[index].machine, $0.cursors[index]) }
        guard let machine else { return nil }
        let waker = self.waker
        let read = machine.core.withLock { core -> (StateMachine<State, Event>.RecordBatch, Int)? in
            core.live.readers.watchers.append(RecordWatcher(waker: waker, index: index))
            return core.sequence > cursor ? (core.batch(after: cursor), core.sequence) : nil
        }
        guard let (batch, sequence) = read else { return nil }
        followed.withLock { $0.cursors[index] = sequence }
        return StateMachine.IndexedRecordBatch(index: index, batch: batch)
    }

    /// Ends the feed and takes its watchers out of every machine still there.
    func end() {
        waker.end()
        let waker = self.waker
        for entry in followed.withLock({ $0.machines }) {
            entry.machine?.core.withLock { core in core.live.readers.watchers.removeAll { $0.waker === waker } }
        }
    }
}
