import Testing

@testable import StateMachineKit

@Suite struct ObservationTests {
    typealias Machine = StateMachine<Download, DownloadEvent>

    @Test func aReaderSeesTheCurrentStateAtOnce() async {
        let machine = Machine(initial: .running(percent: 7), label: "dl", transition: download)
        var reader = machine.states().makeAsyncIterator()
        #expect(await reader.next() == .running(percent: 7))
    }

    @Test func aSlowReaderSeesOnlyTheNewestStateNotABacklog() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        var reader = machine.states().makeAsyncIterator()
        #expect(await reader.next() == .idle)
        machine.send(.start)
        for percent in 1...100 { machine.send(.progress(percent)) }
        #expect(await reader.next() == .running(percent: 100))
        machine.send(.finish)
        #expect(await reader.next() == .done)
    }

    @Test func aWaitingReaderWakesOnTheNextChange() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        let seen = Signals<Download>()
        let reader = Task {
            for await state in machine.states() {
                seen.post(state)
                if state == .done { return }
            }
        }
        #expect(await seen.next() == [.idle])
        machine.send(.start)
        #expect(await seen.next() == [.running(percent: 0)])
        machine.send(.finish)
        #expect(await seen.next() == [.done])
        await reader.value
    }

    @Test func staysAndInvalidEventsDoNotWakeReaders() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        var reader = machine.states().makeAsyncIterator()
        #expect(await reader.next() == .idle)
        machine.send(.finish)
        #expect(
            machine.core.withLock { core in core.readers.slots.values.map { $0.seen == core.changes } } == [
                true
            ])
        machine.send(.start)
        #expect(await reader.next() == .running(percent: 0))
    }

    @Test func everyReaderSeesTheNewestStateAndEveryStreamFinishesOnStop() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        let readers = (0..<20).map { _ in
            let stream = machine.states()
            return Task {
                var seen: [Download] = []
                for await state in stream { seen.append(state) }
                return seen
            }
        }
        machine.send(.start)
        machine.send(.progress(50))
        machine.send(.finish)
        machine.stop()
        for reader in readers {
            let seen = await reader.value
            // What a reader saw in between depends on when it ran; it always ends at the newest state.
            #expect(seen.last == .done)
            #expect(seen.count <= 4)
        }
    }

    @Test func aStreamMadeAfterStopYieldsTheFinalStateAndFinishes() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        machine.send(.start)
        machine.stop()
        var seen: [Download] = []
        for await state in machine.states() { seen.append(state) }
        #expect(seen == [.running(percent: 0)])
    }

    @Test func cancellingTheReadingTaskFinishesItsStream() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        let started = Signals<Download>()
        let reader = Task {
            var count = 0
            for await state in machine.states() {
                count += 1
                started.post(state)
            }
            return count
        }
        #expect(await started.next() == [.idle])
        reader.cancel()
        #expect(await reader.value == 1)
        #expect(machine.core.withLock { $0.readers.slots.isEmpty })
    }

    /// Issue 25: the reader's `next()` held the machine strongly across its suspension, so a machine with a
    /// parked reader was never freed and the stream never finished.
    @Test(.timeLimit(.minutes(1))) func aForgottenMachineWithAParkedReaderIsFreedAndItsStreamFinishes() async {
        weak var forgotten: Machine?
        let seen = Signals<Download>()
        let reader: Task<[Download], Never>
        do {
            let machine = Machine(initial: .idle, label: "dl", transition: download)
            forgotten = machine
            let stream = machine.states()
            reader = Task {
                var states: [Download] = []
                for await state in stream {
                    states.append(state)
                    seen.post(state)
                }
                return states
            }
            #expect(await seen.next() == [.idle])
            machine.send(.start)
            #expect(await seen.next() == [.running(percent: 0)])
            // Parked: the reader waits for the next change inside its stream's `next()`.
            while machine.core.withLock({ $0.readers.parked.isEmpty }) { await Task.yield() }
        }
        await untilFreed { forgotten }
        #expect(forgotten == nil)
        // Lets the reader go if the machine was kept alive, so that a failure does not hang the run.
        forgotten?.stop()
        #expect(await reader.value == [.idle, .running(percent: 0)])
    }

    /// Every parked reader of many is woken once, handed the new state, and finishes on stop.
    @Test func oneChangeWakesEveryOneOfManyParkedReaders() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        let count = 2000
        let readers = (0..<count).map { _ in
            let stream = machine.states()
            return Task {
                var seen: [Download] = []
                for await state in stream { seen.append(state) }
                return seen
            }
        }
        while machine.core.withLock({ $0.readers.parked.count }) < count { await Task.yield() }
        machine.send(.start)
        while machine.core.withLock({ $0.readers.parked.count }) < count { await Task.yield() }
        machine.stop()
        var seen: [[Download]] = []
        for reader in readers { seen.append(await reader.value) }
        #expect(seen == Array(repeating: [.idle, .running(percent: 0)], count: count))
        #expect(machine.core.withLock { $0.readers.slots.isEmpty })
    }

    @Test func droppingAStreamForgetsItsReader() {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        do {
            let stream = machine.states()
            #expect(machine.core.withLock { $0.readers.slots.count } == 1)
            withExtendedLifetime(stream) {}
        }
        #expect(machine.core.withLock { $0.readers.slots.count } == 0)
    }
}
