import StateMachineKit

/// What a screen counts from a machine's own records: the newest record it has taken in, and how many of
/// the records taken in were dropped as stale or refused as invalid.
///
/// Records arrive as the machine's history (newest only, a bounded window), so each delivery is folded in
/// by sequence number: a record is counted once, however many deliveries carry it.
package struct RecordTally: Hashable, Sendable {
    /// The sequence number of the newest record counted (0: none yet).
    package var lastSequence: Int
    /// Events the machine dropped because the work that sent them had ended.
    package var stale: Int
    /// Events the machine refused as impossible in their state.
    package var invalid: Int

    /// A tally.
    package init(lastSequence: Int = 0, stale: Int = 0, invalid: Int = 0) {
        self.lastSequence = lastSequence
        self.stale = stale
        self.invalid = invalid
    }

    /// The records of `history` newer than the last one counted, oldest first.
    func newRecords<State, Event>(
        _ history: [StateMachine<State, Event>.Record]
    ) -> ArraySlice<StateMachine<State, Event>.Record> {
        let first = history.firstIndex { $0.sequence > lastSequence } ?? history.endIndex
        return history[first...]
    }

    /// Counts the records of `history` newer than the last one counted.
    package mutating func add<State, Event>(_ history: [StateMachine<State, Event>.Record]) {
        for record in newRecords(history) {
            switch record.outcome {
            case .stale: stale += 1
            case .invalid: invalid += 1
            case .moved, .updated, .stayed, .ignored, .stopped, .postponed, .overflowed: break
            }
            lastSequence = record.sequence
        }
    }
}
