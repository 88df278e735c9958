import MachineDrivers
import Testing

/// The slots that bound how many copies move bytes at once (``CopySlots``): taken in the order asked for,
/// given back to the longest waiter, and never held by a task cancelled before or while it waited.
@Suite(.timeLimit(.minutes(1))) struct CopySlotsTests {
    /// Reads `usages` until the usage is `usage` (the waiting tasks run on the cooperative pool; no clock
    /// involved); false when the stream ended first (the test was cancelled at its time limit).
    private func reach(_ usage: CopySlots.Usage, _ usages: inout AsyncStream<CopySlots.Usage>.Iterator) async -> Bool {
        while let next = await usages.next() {
            if next == usage { return true }
        }
        return false
    }

    @Test func slotsGoToTheWaitersInTheOrderTheyAsked() async {
        let slots = CopySlots(limit: 2)
        var usages = slots.usages().makeAsyncIterator()
        #expect(await slots.acquire())
        #expect(await slots.acquire())
        let order = Recorder()
        let first = Task {
            let granted = await slots.acquire()
            await order.add("first")
            return granted
        }
        #expect(await reach((taken: 2, waiting: 1), &usages))
        let second = Task {
            let granted = await slots.acquire()
            await order.add("second")
            return granted
        }
        #expect(await reach((taken: 2, waiting: 2), &usages))
        slots.release()
        #expect(await first.value)
        #expect(slots.usage == (taken: 2, waiting: 1))
        slots.release()
        #expect(await second.value)
        #expect(await order.entries == ["first", "second"])
        slots.release()
        slots.release()
        #expect(slots.usage == (taken: 0, waiting: 0))
    }

    @Test func aWaiterCancelledLeavesTheQueueHoldingNothing() async {
        let slots = CopySlots(limit: 1)
        var usages = slots.usages().makeAsyncIterator()
        #expect(await slots.acquire())
        let waiter = Task { await slots.acquire() }
        #expect(await reach((taken: 1, waiting: 1), &usages))
        waiter.cancel()
        #expect(await waiter.value == false)
        #expect(slots.usage == (taken: 1, waiting: 0))
        slots.release()
        #expect(slots.usage == (taken: 0, waiting: 0))
    }

    @Test func aTaskCancelledBeforeItAsksGetsNoSlot() async {
        let slots = CopySlots(limit: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await slots.acquire()
        }
        #expect(await task.value == false)
        #expect(slots.usage == (taken: 0, waiting: 0))
    }

    /// About eight descriptors a copy after 128 kept aside, at least one copy and at most 64.
    @Test(arguments: [(1024, 64), (256, 16), (200, 9), (64, 1), (20_000, 64), (Int.max, 64)])
    func theSlotsFollowTheLimitOnOpenFiles(openFiles: Int, slots: Int) {
        #expect(CopySlots.limit(forOpenFiles: openFiles) == slots)
    }
}

/// What the waiting tasks did, in order.
private actor Recorder {
    private(set) var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
