import StateMachineKit

/// What a screen counts from a machine's change feed (`records(after:)`): the newest record it has taken in,
/// how many of the records were dropped as stale or refused as invalid, and how many it missed.
///
/// The feed hands every record once, and counts what fell out of the machine's bounded history before it was
/// read as missed: those are counted here as missed, never skipped silently. A batch taken in twice (a
/// subscription that starts again from the first record) is counted once, by sequence number.
package struct RecordTally: Hashable, Sendable {
    /// The sequence number of the newest record counted (0: none yet).
    package var lastSequence: Int
    /// Events the machine dropped because the work that sent them had ended.
    package var stale: Int
    /// Events the machine refused as impossible in their state.
    package var invalid: Int
    /// Records that fell out of the machine's history before the screen read them: not known to be stale or
    /// invalid, so the two counts above are exact only while this is 0.
    package var missed: Int

    /// A tally.
    package init(lastSequence: Int = 0, stale: Int = 0, invalid: Int = 0, missed: Int = 0) {
        self.lastSequence = lastSequence
        self.stale = stale
        self.invalid = invalid
        self.missed = missed
    }

    /// What the screens add after their stale count while records were missed (` · missed: 3`), else nothing.
    package var missedNote: String {
        missed > 0 ? " · missed: \(missed)" : ""
    }

    /// The records of `batch` newer than the last one counted, oldest first.
    func newRecords<State, Event>(
        _ batch: StateMachine<State, Event>.RecordBatch
    ) -> ArraySlice<StateMachine<State, Event>.Record> {
        let first = batch.records.firstIndex { $0.sequence > lastSequence } ?? batch.records.endIndex
        return batch.records[first...]
    }

    /// Of the `claimed` records a batch says fell out of the history just before its first record (`first`;
    /// nil for a batch without records, whose missed records come just after `last`), how many a reader whose
    /// newest record is `last` did miss: those after `last`. A batch read again from the start (by a subscription
    /// begun anew) claims records the reader has.
    static func missed(_ claimed: Int, before first: Int?, after last: Int) -> Int {
        let firstKept = first ?? (last + claimed + 1)
        return max(0, min(claimed, firstKept - 1 - last))
    }

    /// Counts the records of `batch` newer than the last one counted, and the ones it says were missed.
    package mutating func add<State, Event>(_ batch: StateMachine<State, Event>.RecordBatch) {
        // The missed records come just before the batch's first record; without records, just after the last
        // one counted (the feed's cursor is this tally's).
        let first = batch.records.first?.sequence
        missed += Self.missed(batch.missed, before: first, after: lastSequence)
        lastSequence = max(lastSequence, (first ?? (lastSequence + batch.missed + 1)) - 1)
        for record in newRecords(batch) {
            switch record.outcome {
            case .stale: stale += 1
            case .invalid: invalid += 1
            case .moved, .updated, .stayed, .ignored, .stopped, .postponed, .overflowed: break
            }
            lastSequence = record.sequence
        }
    }
}
