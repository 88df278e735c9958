import Testing

@testable import StateMachineKit

/// `StateMachine.records(of:after:)`: one feed, one task, for many machines.
@Suite struct RecordsOfManyTests {
    typealias Machine = StateMachine<Int, FeedStep>
    typealias Batch = Machine.RecordBatch
    typealias Indexed = Machine.IndexedRecordBatch
    typealias Record = Machine.Record

    static func machines(_ count: Int) -> [Machine] {
        (0..<count).map { Machine(initial: 0, label: "m\($0)", transition: feedCounter) }
    }

    /// Waits until the feed's reader is parked on `machines`: every one of them watched.
    static func watched(_ machines: [Machine]) async {
        while !machines.allSatisfy({ $0.core.withLock { !$0.readers.watchers.isEmpty } }) { await Task.yield() }
    }

    @Test func machinesThatRecordedComeInTheirOrderEachWithEveryRecordSinceItWasRead() async {
        let machines = Self.machines(3)
        machines[0].send(.move)
        var feed = Machine.records(of: machines).makeAsyncIterator()
        let first = await feed.next()
        #expect(
            first == [
                Indexed(
                    index: 0,
                    batch: Batch(
                        records: [Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1)],
                        missed: 0, state: 1))
            ])
        // A burst on one machine, and one record on another marked earlier: one element, in the machines' order.
        machines[2].send(.change)
        machines[2].send(.stay)
        machines[0].send(.ignore)
        let second = await feed.next()
        #expect(
            second == [
                Indexed(
                    index: 0,
                    batch: Batch(
                        records: [
                            Record(sequence: 2, visit: 2, before: 1, event: .ignore, outcome: .ignored, after: 1)
                        ],
                        missed: 0, state: 1)),
                Indexed(
                    index: 2,
                    batch: Batch(
                        records: [
                            Record(sequence: 1, visit: 1, before: 0, event: .change, outcome: .updated, after: 10),
                            Record(sequence: 2, visit: 1, before: 10, event: .stay, outcome: .stayed, after: 10),
                        ],
                        missed: 0, state: 10)),
            ])
    }

    /// A `MachineSet` grows while its feed is read: a machine added after the feed began is followed from its
    /// first record (made before it was added or after), at its index in the order the machines were added.
    @Test func aMachineSetsFeedFollowsMachinesAddedWhileItIsRead() async {
        let machines = Self.machines(3)
        let set = Machine.MachineSet()
        #expect(set.add(machines[0]) == 0)
        var feed = set.records().makeAsyncIterator()
        machines[1].send(.move)  // before it is added: read from its first record once it is
        #expect(set.add(machines[1]) == 1)
        let first = await feed.next()
        #expect(
            first == [
                Indexed(
                    index: 1,
                    batch: Batch(
                        records: [Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1)],
                        missed: 0, state: 1))
            ])
        #expect(set.add(machines[2]) == 2)
        machines[2].send(.change)
        machines[0].send(.move)
        let second = await feed.next()
        #expect(
            second == [
                Indexed(
                    index: 0,
                    batch: Batch(
                        records: [Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1)],
                        missed: 0, state: 1)),
                Indexed(
                    index: 2,
                    batch: Batch(
                        records: [
                            Record(sequence: 1, visit: 1, before: 0, event: .change, outcome: .updated, after: 10)
                        ],
                        missed: 0, state: 10)),
            ])
        #expect(set.count == 3)
    }

    /// A machine taken out of a `MachineSet` is read by none of its feeds from then on (one begun before and one
    /// begun after), holds none of their watchers, and its index is never given again; the set holds only the
    /// machines in it.
    @Test func aMachineRemovedFromASetIsReadNoMoreAndItsIndexIsNotGivenAgain() async {
        let machines = Self.machines(3)
        let set = Machine.MachineSet()
        var early = set.records().makeAsyncIterator()
        #expect([set.add(machines[0]), set.add(machines[1])] == [0, 1])
        await Self.watched(Array(machines[0...1]))
        machines[0].send(.move)  // recorded, then taken out before the feed reads it
        set.remove(0)
        set.remove(0)  // removed already: nothing happens
        #expect(machines[0].core.withLock { $0.readers.watchers.isEmpty })
        #expect(set.add(machines[2]) == 2)
        machines[1].send(.move)
        machines[0].send(.change)
        let move = Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1)
        let expected = [Indexed(index: 1, batch: Batch(records: [move], missed: 0, state: 1))]
        #expect(await early.next() == expected)
        var late = set.records().makeAsyncIterator()
        #expect(await late.next() == expected)
        #expect(machines[0].core.withLock { $0.readers.watchers.isEmpty })
        #expect([set.count, set.memberCount] == [3, 2])
    }

    /// A set and its feed that a burst of machines passed through give the room back as the machines leave
    /// (issue 23, item 6: a dashboard that started 20,000 rows at once kept room for them all, 40 bytes a row,
    /// after every one was let go), and still read the machines that stay.
    @Test func aSetThatABurstPassedThroughGivesItsRoomBack() async {
        let machines = Self.machines(1_000)
        let set = Machine.MachineSet()
        var feed = set.records().makeAsyncIterator()
        for machine in machines { set.add(machine) }
        let burst = set.capacity
        for index in 0..<999 { set.remove(index) }
        machines[999].send(.move)
        let move = Record(sequence: 1, visit: 1, before: 0, event: .move, outcome: .moved, after: 1)
        #expect(await feed.next() == [Indexed(index: 999, batch: Batch(records: [move], missed: 0, state: 1))])
        #expect([set.memberCount, set.feedCapacities.count] == [1, 1])
        #expect(burst >= 1_000)
        #expect(([set.capacity] + set.feedCapacities).allSatisfy { $0 <= 64 })
    }

    /// A machine restored from a snapshot and added after the record before its oldest is read from that record:
    /// the records before the snapshot are not counted as missed, for a feed begun before the machine was added
    /// and for one begun after.
    @Test func aRestoredMachineAddedAfterItsOldestRecordIsReadFromThere() async {
        let last = Record(sequence: 7, visit: 3, before: 1, event: .move, outcome: .moved, after: 2)
        let restored = Machine(
            restoring: Machine.Snapshot(state: 2, visit: 4, sequence: 7, history: [last], timeout: nil),
            label: "restored", transition: feedCounter)
        let set = Machine.MachineSet()
        var early = set.records().makeAsyncIterator()
        #expect(set.add(restored, after: 6) == 0)
        restored.send(.change)
        let next = Record(sequence: 8, visit: 4, before: 2, event: .change, outcome: .updated, after: 12)
        let expected = [Indexed(index: 0, batch: Batch(records: [last, next], missed: 0, state: 12))]
        #expect(await early.next() == expected)
        var late = set.records().makeAsyncIterator()
        #expect(await late.next() == expected)
    }

    @Test func aParkedFeedWakesOnTheNextRecordOfAnyMachine() async {
        let machines = Self.machines(4)
        let stream = Machine.records(of: machines)
        let reader = Task {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        await Self.watched(machines)
        machines[3].send(.refuse)
        #expect(
            await reader.value == [
                Indexed(
                    index: 3,
                    batch: Batch(
                        records: [
                            Record(
                                sequence: 1, visit: 1, before: 0, event: .refuse, outcome: .invalid("refused"),
                                after: 0)
                        ],
                        missed: 0, state: 0))
            ])
    }

    @Test func cursorsSkipWhatWasSeenAndAMachineThatIsGoneIsLeftOut() async {
        var machines = Self.machines(2)
        machines[0].send(.move)
        machines[0].send(.move)
        machines[1].send(.move)
        let stream = Machine.records(of: machines, after: [1, 0])
        machines.removeLast()
        var feed = stream.makeAsyncIterator()
        #expect(
            await feed.next() == [
                Indexed(
                    index: 0,
                    batch: Batch(
                        records: [Record(sequence: 2, visit: 2, before: 1, event: .move, outcome: .moved, after: 2)],
                        missed: 0, state: 2))
            ])
    }

    /// A set's `changes()` follows it as `records()` does, but names each machine that recorded once, however many
    /// records it made, in ascending order, and copies none: one added after it began from its first record, one
    /// recording again after it was named in a later element, one removed no more.
    @Test func aSetsChangesNameEachMachineThatRecordedOnceWithoutItsRecords() async {
        let machines = Self.machines(3)
        let set = Machine.MachineSet()
        #expect(set.add(machines[0]) == 0)
        var feed = set.changes().makeAsyncIterator()
        machines[1].send(.move)  // before it is added: named once it is
        #expect(set.add(machines[1]) == 1)
        #expect(await feed.next() == [1])
        #expect(set.add(machines[2]) == 2)
        machines[2].send(.change)
        machines[2].send(.stay)
        machines[0].send(.move)
        #expect(await feed.next() == [0, 2])
        set.remove(0)
        machines[0].send(.change)
        machines[1].send(.move)
        #expect(await feed.next() == [1])
        #expect(machines.map { $0.core.withLock { $0.readers.watchers.count } } == [0, 1, 1])
    }

    /// A machine added with a cursor past its newest record (``StateMachine/sequence`` + 1) is named from the record
    /// after the next one: the next record wakes no feed (its watcher stays in place), the one after it is named.
    @Test func aCursorPastTheNewestRecordSkipsTheNextRecordWithoutAWake() async {
        let machines = Self.machines(2)
        let set = Machine.MachineSet()
        machines[0].send(.move)
        #expect(machines.map(\.sequence) == [1, 0])
        #expect(set.add(machines[0], after: machines[0].sequence + 1) == 0)
        #expect(set.add(machines[1]) == 1)
        var feed = set.changes().makeAsyncIterator()
        await Self.watched(machines)
        machines[0].send(.move)  // its second record, at the cursor
        #expect(machines.map { $0.core.withLock { $0.readers.watchers.count } } == [1, 1])
        machines[1].send(.move)
        #expect(await feed.next() == [1])
        machines[0].send(.change)
        #expect(await feed.next() == [0])
        #expect(machines.map(\.sequence) == [3, 1])
    }

    /// The two feeds of many machines.
    enum Feed: CaseIterable, Sendable {
        case records
        case changes
    }

    /// A feed that is cancelled, of records or of changes, ends and takes its watchers out of its machines.
    @Test(arguments: Feed.allCases)
    func cancellingTheFeedEndsItAndLeavesNoWatcherBehind(_ feed: Feed) async {
        let machines = Self.machines(3)
        let set = Machine.MachineSet()
        for machine in machines { set.add(machine) }
        let reader =
            switch feed {
            case .records: Self.counting(Machine.records(of: machines))
            case .changes: Self.counting(set.changes())
            }
        await Self.watched(machines)
        reader.cancel()
        #expect(await reader.value == 0)
        #expect(machines.map { $0.core.withLock { $0.readers.watchers.count } } == [0, 0, 0])
        // A record now tells nobody.
        machines[1].send(.move)
        #expect(machines.map { $0.core.withLock { $0.readers.watchers.count } } == [0, 0, 0])
    }

    /// A task counting the elements of `stream` until it ends.
    static func counting<Element: Sendable>(_ stream: AsyncStream<Element>) -> Task<Int, Never> {
        Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
    }
}
