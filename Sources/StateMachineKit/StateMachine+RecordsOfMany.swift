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
/// their watchers tell.
final class RecordsOfMany<State: Hashable & Sendable, Event: Sendable>: Sendable {
    private struct Machine: Sendable {
        weak var machine: StateMachine<State, Event>?
    }

    private let machines: [Machine]
    private let waker: RecordsWaker
    /// Each machine's cursor; read and moved only by the feed's one reader, one `next()` at a time.
    private let cursors: Locked<[Int]>

    /// Watches every machine: one with records after its cursor is marked to be read at once, the others
    /// watched until they record.
    init(_ machines: [StateMachine<State, Event>], after cursors: [Int]) {
        self.machines = machines.map { Machine(machine: $0) }
        let waker = RecordsWaker(count: machines.count)
        self.waker = waker
        self.cursors = Locked(cursors)
        for (index, machine) in machines.enumerated() {
            let behind = machine.core.withLock { core in
                if core.sequence > cursors[index] { return true }
                core.live.readers.watchers.append(RecordWatcher(waker: waker, index: index))
                return false
            }
            if behind { waker.recorded(index) }
        }
    }

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
        guard let machine = machines[index].machine else { return nil }
        let cursor = cursors.withLock { $0[index] }
        let waker = self.waker
        let read = machine.core.withLock { core -> (StateMachine<State, Event>.RecordBatch, Int)? in
            core.live.readers.watchers.append(RecordWatcher(waker: waker, index: index))
            return core.sequence > cursor ? (core.batch(after: cursor), core.sequence) : nil
        }
        guard let (batch, sequence) = read else { return nil }
        cursors.withLock { $0[index] = sequence }
        return StateMachine.IndexedRecordBatch(index: index, batch: batch)
    }

    /// Ends the feed and takes its watchers out of every machine still there.
    func end() {
        waker.end()
        let waker = self.waker
        for entry in machines {
            entry.machine?.core.withLock { core in core.live.readers.watchers.removeAll { $0.waker === waker } }
        }
    }
}
