import StateMachineKit
import Support

/// Time that moves only when told to (``advance(by:)``, ``step(toward:)``), which runs every callback that
/// falls due, in deadline order (ties in scheduling order), on the calling thread, and moves the machines'
/// ``TestClock`` along after each: one clock for the machines and the simulated work, never two kept in step
/// by hand. Demos and tests use it so frames are reproducible: nothing happens between two steps of a script.
package final class ManualClock: SimulationClock {
    private struct Entry {
        var deadline: Duration
        var order: Int
        var work: @Sendable () -> Void
        var handle: ScheduledWork
    }

    private struct Timeline {
        var now: Duration = .zero
        var nextOrder = 0
        var entries: [Entry] = []
    }

    private let timeline = Locked(Timeline())
    private let scheduled = Locked<(@Sendable () -> Void)?>(nil)
    /// The machines' side of the clock; it follows the timeline after each callback.
    private let machines: TestClock
    /// The machines' clock, moved along with this one (wrapped once, at time zero).
    package let machineClock: AnyClock

    /// Time zero, nothing pending.
    package init() {
        machines = TestClock()
        machineClock = AnyClock(machines)
    }

    /// The time advanced so far.
    package var now: Duration { timeline.withLock { $0.now } }

    /// How many callbacks are waiting.
    package var pendingCount: Int { timeline.withLock { $0.entries.filter { !$0.handle.isCancelled }.count } }

    /// Schedules `work` at now + `delay`.
    @discardableResult
    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        timeline.withLock { timeline in
            timeline.entries.append(
                Entry(deadline: timeline.now + max(.zero, delay), order: timeline.nextOrder, work: work, handle: handle)
            )
            timeline.nextOrder += 1
        }
        scheduled.withLock { $0 }?()
        return handle
    }

    /// Calls `hook` after every ``schedule(after:_:)`` and every ``workSetUp()`` (nil: nothing): a demo that
    /// waits for the simulated world to set itself up looks again when something is scheduled, and when a
    /// run of work has recorded that it is set up (which it does after scheduling its first callback).
    package func whenScheduled(_ hook: (@Sendable () -> Void)?) {
        scheduled.withLock { $0 = hook }
    }

    /// Calls the hook given to ``whenScheduled(_:)``.
    package func workSetUp() {
        scheduled.withLock { $0 }?()
    }

    /// Waits until `condition` holds, looking again only when something was scheduled or a run of work was set
    /// up (the ``whenScheduled(_:)`` hook, which it holds while it waits), never by time or by spinning. For a
    /// condition on what simulated work sets up after an event; a test bounds the wait with `.timeLimit`.
    package func settle(until condition: () -> Bool) async {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        whenScheduled { wake.yield() }
        defer { whenScheduled(nil) }
        var iterator = wakes.makeAsyncIterator()
        while !condition() { await iterator.next() }
    }

    /// Runs the earliest callback due at or before `deadline` (time since zero), moving time to its own
    /// deadline first; false when none is due then, leaving time as it is. A driver that must let the world
    /// react between two callbacks steps with this, then ends a stretch of time with ``advance(to:)``.
    package func runNext(dueBy deadline: Duration) -> Bool {
        while let next = takeNext(dueBy: deadline) {
            if !next.handle.isCancelled {
                next.work()
                followWithMachines()
                return true
            }
        }
        followWithMachines()
        return false
    }

    /// Moves time toward `deadline` (time since zero) by one due callback: true when one ran (the world must
    /// settle before the next), false once time stands at `deadline`. How a scripted demo steps.
    package func step(toward deadline: Duration) -> Bool {
        if runNext(dueBy: deadline) { return true }
        advance(to: deadline)
        return false
    }

    /// Moves time to `deadline` (never back), running each callback due by then at its own deadline.
    package func advance(to deadline: Duration) {
        advance(by: deadline - now)
    }

    /// Moves time forward by `duration`, running each callback due by then at its own deadline (work a
    /// callback schedules within the window runs too).
    package func advance(by duration: Duration) {
        let target = timeline.withLock { $0.now + max(.zero, duration) }
        while let next = takeNext(dueBy: target) {
            if !next.handle.isCancelled {
                next.work()
                followWithMachines()
            }
        }
        timeline.withLock { $0.now = target }
        followWithMachines()
    }

    /// Moves the machines' clock to the timeline's time, after the callback due then ran, as the demos were
    /// recorded. (A subscription that samples a machine's clock while the callback's change comes through may
    /// read the time before or after: the tour's fifth frame shows either rate, on main as here.)
    private func followWithMachines() {
        machines.advance(by: now - machines.now.offset)
    }

    private func takeNext(dueBy target: Duration) -> Entry? {
        timeline.withLock { timeline -> Entry? in
            guard
                let index = timeline.entries.indices.filter({ timeline.entries[$0].deadline <= target })
                    .min(by: {
                        (timeline.entries[$0].deadline, timeline.entries[$0].order)
                            < (timeline.entries[$1].deadline, timeline.entries[$1].order)
                    })
            else { return nil }
            let entry = timeline.entries.remove(at: index)
            timeline.now = max(timeline.now, entry.deadline)
            return entry
        }
    }
}
