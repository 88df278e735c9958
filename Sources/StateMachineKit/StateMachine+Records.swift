extension StateMachine {
    /// What a ``StateMachine/records(after:)`` reader is handed at once: every record after its cursor.
    public struct RecordBatch: Sendable {
        /// Every record after the reader's cursor still in ``StateMachine/history``, oldest first.
        public let records: [Record]
        /// How many records after the cursor fell out of the bounded history before the reader asked.
        ///
        /// `missed + records.count` is the number of records after the cursor: nothing is skipped silently.
        public let missed: Int
        /// The state after the newest record.
        public let state: State

        /// Creates a batch.
        @inlinable
        public init(records: [Record], missed: Int, state: State) {
            self.records = records
            self.missed = missed
            self.state = state
        }
    }

    /// Every record the machine makes after `sequence`, in batches, until the machine stops or is gone.
    ///
    /// Every record wakes the reader — moved, updated, stayed, ignored, invalid, stale, postponed,
    /// overflowed — not only changes of state as with ``states()``. Each `next()` returns at once with all
    /// the records after the reader's cursor when there are any, in one batch (a slow reader gets one
    /// batch, never a backlog), and otherwise waits for the next record; the cursor then moves to the
    /// newest record handed out. Records that fell out of the bounded ``history`` before the reader asked
    /// are counted in ``RecordBatch/missed``. The stream ends after the last records once the machine
    /// stops or is gone; a reader does not keep the machine alive.
    ///
    /// ```swift
    /// for await batch in machine.records() {
    ///     stale += batch.records.filter { $0.outcome == .stale }.count
    ///     missed += batch.missed
    /// }
    /// ```
    ///
    /// A machine with no feed reader pays nothing for the feed.
    ///
    /// - Parameter sequence: the reader's cursor: the ``Record/sequence`` of the newest record it has
    ///   already seen; 0, the default, reads from the first record.
    @inlinable
    public func records(after sequence: Int = 0) -> AsyncStream<RecordBatch> {
        precondition(
            sequence >= 0, "StateMachine \(label): records(after:) takes a sequence of 0 or more, got \(sequence)")
        let reader = addReader(.records) { _ in sequence }
        return AsyncStream(unfolding: {
            switch await reader.next() {
            case .records(let batch): batch
            case nil: nil
            case .state: preconditionFailure("Internal inconsistency: feed reader \(reader.id) got a state")
            }
        })
    }
}

extension StateMachine.RecordBatch: Equatable where Event: Equatable {}
extension StateMachine.RecordBatch: Hashable where Event: Hashable {}

extension StateMachine.Core {
    /// The records after `cursor` (a reader's, below ``sequence``) still in history, the number that fell
    /// out of it, and the state after them.
    @inlinable
    func batch(after cursor: Int) -> StateMachine.RecordBatch {
        let count = sequence - cursor
        let kept = min(count, history.count)
        return StateMachine.RecordBatch(records: history.newest(kept), missed: count - kept, state: state)
    }
}
