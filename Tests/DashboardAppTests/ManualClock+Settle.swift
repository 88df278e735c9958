import MachineDrivers

extension ManualClock {
    /// Waits until `condition` holds, looking again only when the clock says something was scheduled or a run
    /// of work was set up (its `whenScheduled` hook), never by time or by spinning. For a condition on what
    /// simulated work sets up after an event; a test bounds the wait with `.timeLimit`.
    func settle(until condition: () -> Bool) async {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        whenScheduled { wake.yield() }
        defer { whenScheduled(nil) }
        var iterator = wakes.makeAsyncIterator()
        while !condition() { await iterator.next() }
    }
}
