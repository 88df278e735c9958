import Testing

@testable import StateMachineKit

/// One event for each kind of decision, so that each kind of record can be made on purpose.
enum FeedStep: Hashable, Sendable {
    case move, change, stay, ignore, refuse, wait
}

/// The state counts moves in its ones and changes in its tens; `wait` is postponed.
@Sendable func feedCounter(_ state: Int, _ event: FeedStep) -> Transition<Int, FeedStep> {
    switch event {
    case .move: .to(state + 1)
    case .change: .update(state + 10)
    case .stay: .stay
    case .ignore: .ignore
    case .refuse: .invalid("refused")
    case .wait: .postpone
    }
}

@Suite struct ChangeFeedTests {
    typealias Machine = StateMachine<Int, FeedStep>
    typealias Batch = Machine.RecordBatch
    typealias Record = Machine.Record

    /// Reads `machine`'s feed after `cursor` in a task, posting every batch, until the stream ends.
    static func read(_ machine: Machine, after cursor: Int = 0) -> (Signals<Batch>, Task<Int, Never>) {
        let seen = Signals<Batch>()
        let stream = machine.records(after: cursor)
        let reader = Task {
            var batches = 0
            for await batch in stream {
                batches += 1
                seen.post(batch)
            }
            return batches
        }
        return (seen, reader)
    }

    /// Waits until `count` feed readers are parked, waiting for the next record.
    static func parked(_ machine: Machine, count: Int = 1) async {
        while machine.core.withLock({ $0.readers.parkedFeeds.count }) < count { await Task.yield() }
    }

    @Test(arguments: [
        Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1),
        Record(sequence: 1, visit: 1, before: 0, event: .change, outcome: .updated, after: 10),
        Record(sequence: 1, visit: 1, before: 0, event: .stay, outcome: .stayed, after: 0),
        Record(sequence: 1, visit: 1, before: 0, event: .ignore, outcome: .ignored, after: 0),
        Record(sequence: 1, visit: 1, before: 0, event: .refuse, outcome: .invalid("refused"), after: 0),
        Record(sequence: 1, visit: 1, before: 0, event: .wait, outcome: .postponed, after: 0),
        Record(sequence: 3, visit: 2, before: 1, event: .stay, outcome: .stale, after: 1),
        Record(sequence: 2, visit: 1, before: 0, event: .wait, outcome: .overflowed, after: 0),
    ])
    func everyKindOfRecordWakesAParkedReader(expected: Record) async {
        let machine = Machine(initial: 0, label: "feed", postponeLimit: 1, transition: feedCounter)
        var sender: Machine.Sender?
        switch expected.outcome {
        case .stale:
            // The sender's visit ends with the move: what it sends afterwards is stale.
            sender = machine.sendAndBind(.stay).sender
            machine.send(.move)
        case .overflowed:
            machine.send(.wait)
        case .moved, .updated, .stayed, .ignored, .invalid, .postponed, .stopped:
            break
        }
        let (seen, reader) = Self.read(machine, after: expected.sequence - 1)
        await Self.parked(machine)
        if let sender { sender.send(expected.event) } else { machine.send(expected.event) }
        #expect(await seen.next() == [Batch(records: [expected], missed: 0, state: expected.after)])
        machine.stop()
        #expect(await reader.value == 1)
    }

    @Test func aSlowReaderGetsEveryRecordInOneBatchNotABacklog() async {
        let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
        var reader = machine.records().makeAsyncIterator()
        for _ in 0..<3 {
            machine.send(.move)
            machine.send(.stay)
        }
        #expect(
            await reader.next()
                == Batch(
                    records: [
                        Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1),
                        Record(sequence: 2, visit: 2, before: 1, event: .stay, outcome: .stayed, after: 1),
                        Record(sequence: 3, visit: 2, before: 1, event: .move, outcome: .moved, after: 2),
                        Record(sequence: 4, visit: 3, before: 2, event: .stay, outcome: .stayed, after: 2),
                        Record(sequence: 5, visit: 3, before: 2, event: .move, outcome: .moved, after: 3),
                        Record(sequence: 6, visit: 4, before: 3, event: .stay, outcome: .stayed, after: 3),
                    ], missed: 0, state: 3))
        machine.send(.ignore)
        #expect(
            await reader.next()
                == Batch(
                    records: [Record(sequence: 7, visit: 4, before: 3, event: .ignore, outcome: .ignored, after: 3)],
                    missed: 0, state: 3))
    }

    /// What fell out of the bounded history is counted, never skipped silently: `missed + records.count` is
    /// the number of records after the cursor.
    @Test(arguments: [
        (historyLimit: 4, after: 0, missed: 6, kept: Array(7...10)),
        (historyLimit: 4, after: 3, missed: 3, kept: Array(7...10)),
        (historyLimit: 4, after: 8, missed: 0, kept: [9, 10]),
        (historyLimit: 64, after: 0, missed: 0, kept: Array(1...10)),
        (historyLimit: 0, after: 2, missed: 8, kept: []),
    ])
    func recordsThatFellOutOfHistoryAreCountedAsMissed(
        historyLimit: Int, after cursor: Int, missed: Int, kept: [Int]
    ) async {
        let machine = Machine(initial: 0, label: "feed", historyLimit: historyLimit, transition: feedCounter)
        for _ in 1...10 { machine.send(.move) }
        var reader = machine.records(after: cursor).makeAsyncIterator()
        let expected = kept.map {
            Record(sequence: $0, visit: $0, before: $0 - 1, event: .move, outcome: .moved, after: $0)
        }
        #expect(await reader.next() == Batch(records: expected, missed: missed, state: 10))
    }

    @Test func theCursorMovesToTheNewestRecordHandedOut() async {
        let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
        for _ in 1...5 { machine.send(.stay) }
        // A cursor ahead of the machine waits until records pass it.
        var ahead = machine.records(after: 7).makeAsyncIterator()
        var behind = machine.records(after: 2).makeAsyncIterator()
        #expect(await behind.next()?.records.map(\.sequence) == [3, 4, 5])
        for _ in 1...3 { machine.send(.move) }
        #expect(await behind.next()?.records.map(\.sequence) == [6, 7, 8])
        #expect(
            await ahead.next()
                == Batch(
                    records: [Record(sequence: 8, visit: 3, before: 2, event: .move, outcome: .moved, after: 3)],
                    missed: 0, state: 3))
    }

    @Test func theStreamEndsAfterTheLastRecordsOnceTheMachineStops() async {
        let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
        let (parkedSeen, parkedReader) = Self.read(machine)
        machine.send(.move)
        #expect(await parkedSeen.next().map(\.state) == [1])
        let late = machine.records(after: 1)
        machine.send(.stay)
        machine.send(.move)
        await Self.parked(machine)
        machine.stop()
        var batches: [Batch] = []
        for await batch in late { batches.append(batch) }
        #expect(
            batches == [
                Batch(
                    records: [
                        Record(sequence: 2, visit: 2, before: 1, event: .stay, outcome: .stayed, after: 1),
                        Record(sequence: 3, visit: 2, before: 1, event: .move, outcome: .moved, after: 2),
                    ], missed: 0, state: 2)
            ])
        // The parked reader was handed the last records or woke to its stream's end, never hung.
        _ = await parkedReader.value
        #expect(machine.core.withLock { $0.readers.slots.isEmpty && $0.readers.parkedFeeds.isEmpty })
    }

    @Test(.timeLimit(.minutes(1))) func aForgottenMachineWithAParkedFeedReaderIsFreedAndItsStreamEnds() async {
        weak var forgotten: Machine?
        let reader: Task<Int, Never>
        let seen: Signals<Batch>
        do {
            let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
            forgotten = machine
            (seen, reader) = Self.read(machine)
            machine.send(.stay)
            #expect(await seen.next().map(\.records.count) == [1])
            await Self.parked(machine)
        }
        await untilFreed { forgotten }
        #expect(forgotten == nil)
        // Lets the reader go if the machine was kept alive, so that a failure does not hang the run.
        forgotten?.stop()
        #expect(await reader.value == 1)
    }

    @Test func cancellingTheReadingTaskEndsItsStreamAndForgetsTheReader() async {
        let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
        let (seen, reader) = Self.read(machine)
        machine.send(.stay)
        #expect(await seen.next().map(\.missed) == [0])
        await Self.parked(machine)
        reader.cancel()
        #expect(await reader.value == 1)
        #expect(machine.core.withLock { $0.readers.slots.isEmpty && $0.readers.parkedFeeds.isEmpty })
    }

    /// A record that changes nothing wakes the feed reader and leaves a `states()` reader parked.
    @Test func aStayWakesAFeedReaderButNotAStatesReader() async {
        let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
        var states = machine.states().makeAsyncIterator()
        #expect(await states.next() == 0)
        let statesReader = Task {
            var seen: [Int] = []
            while let state = await states.next() { seen.append(state) }
            return seen
        }
        let (seen, feedReader) = Self.read(machine)
        while machine.core.withLock({ $0.readers.parked.count + $0.readers.parkedFeeds.count }) < 2 {
            await Task.yield()
        }
        machine.send(.stay)
        #expect(await seen.next().map(\.records.count) == [1])
        #expect(machine.core.withLock { $0.readers.parked.count } == 1)
        machine.send(.move)
        #expect(await seen.next().map(\.state) == [1])
        machine.stop()
        #expect(await statesReader.value == [1])
        #expect(await feedReader.value == 2)
    }

    /// Senders on many tasks at once: the reader gets every record exactly once, in order, nothing missed.
    @Test func aReaderGetsEveryRecordOfConcurrentSendersOnceInOrder() async {
        let senders = 8
        let events = 250
        let machine = Machine(
            initial: 0, label: "feed", historyLimit: senders * events, transition: feedCounter)
        let reader = Task {
            var sequences: [Int] = []
            var missed = 0
            for await batch in machine.records() {
                sequences += batch.records.map(\.sequence)
                missed += batch.missed
            }
            return (sequences, missed)
        }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for index in 0..<events { machine.send((sender + index).isMultiple(of: 2) ? .move : .stay) }
                }
            }
        }
        machine.stop()
        let (sequences, missed) = await reader.value
        #expect(sequences == Array(1...(senders * events)))
        #expect(missed == 0)
    }

    @Test func aMachineWithNoFeedReaderKeepsNoFeedState() {
        let machine = Machine(initial: 0, label: "feed", transition: feedCounter)
        do {
            let stream = machine.records()
            _ = stream
            #expect(machine.core.withLock { $0.readers.slots.count } == 1)
        }
        machine.send(.move)
        #expect(machine.core.withLock { $0.readers.slots.isEmpty && $0.readers.parkedFeeds.isEmpty })
    }
}
