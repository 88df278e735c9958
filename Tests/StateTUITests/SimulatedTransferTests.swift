import ScreenStates
import StateMachineKit
import StateTUI
import Testing

/// The simulated effect adapter on a TestClock: progress through the visit's sender, an outcome after the
/// drawn number of ticks, a failure when asked, and late callbacks from ended visits dropped as stale.
@Suite struct SimulatedTransferTests {
    static let timing = SimulationTiming(tick: .seconds(1), ticksPerTransfer: 4...4, lateCallbackDelay: .seconds(2))

    static func make(_ clock: TestClock, timing: SimulationTiming = timing) -> SimulatedTransfer {
        SimulatedTransfer(name: "photos.tar", clock: AnyClock(clock), random: SimulationRandom(seed: 7), timing: timing)
    }

    /// Advances one tick once the worker sleeps, then waits until it sleeps again (or has finished).
    static func tick(_ clock: TestClock, by duration: Duration = .seconds(1)) async {
        await clock.sleepers(atLeast: 1)
        clock.advance(by: duration)
    }

    /// Waits, without a wall clock, until the machine publishes a state `matching`.
    static func waitFor(_ transfer: SimulatedTransfer, _ matching: (TransferState) -> Bool) async -> TransferState? {
        for await model in transfer.machine.engine.states() where matching(model.phase) { return model.phase }
        return nil
    }

    static func events(_ transfer: SimulatedTransfer) -> [String] {
        transfer.machine.engine.history.map { "\($0.event) \($0.outcome)" }
    }

    @Test func aStartedTransferProgressesToSuccessOnTheMachineClock() async {
        let clock = TestClock()
        let transfer = Self.make(clock)
        defer { transfer.stop() }
        transfer.machine.send(.start)
        for _ in 0..<4 { await Self.tick(clock) }
        let settled = await Self.waitFor(transfer) { $0 == .completed(file: "photos.tar") }
        #expect(settled == .completed(file: "photos.tar"))
        #expect(
            Self.events(transfer) == [
                "start moved", "progress(request: 1, percent: 25) updated", "progress(request: 1, percent: 50) updated",
                "progress(request: 1, percent: 75) updated", "progress(request: 1, percent: 100) updated",
                "succeeded(request: 1, file: \"photos.tar\") moved",
            ])
        #expect(transfer.status == SimulationStatus())
    }

    @Test func anArmedFailureIsTheNextOutcomeAndIsUsedUp() async {
        let clock = TestClock()
        let transfer = Self.make(clock)
        defer { transfer.stop() }
        transfer.failNextOutcome()
        #expect(transfer.status == SimulationStatus(staleEvents: 0, failsNextOutcome: true))
        transfer.machine.send(.start)
        for _ in 0..<4 { await Self.tick(clock) }
        let settled = await Self.waitFor(transfer) { if case .failed = $0 { true } else { false } }
        #expect(settled == .failed(message: "simulated failure"))
        #expect(transfer.machine.model == TransferModel(phase: .failed(message: "simulated failure"), lastRequest: 1, retainedPercent: 100))
        #expect(transfer.status == SimulationStatus())
    }

    @Test func aPausedWorkersLateCallbackArrivesAndIsDroppedAsStale() async {
        let clock = TestClock()
        let transfer = Self.make(clock)
        defer { transfer.stop() }
        transfer.machine.send(.start)
        await Self.tick(clock)
        _ = await Self.waitFor(transfer) { $0 == .running(request: 1, percent: 25) }
        await clock.sleepers(atLeast: 1)
        transfer.machine.send(.pause)
        // The cancelled worker lives on, sleeping until its late callback is due.
        await Self.tick(clock, by: .seconds(2))
        var updates = transfer.statusUpdates.makeAsyncIterator()
        var status = await updates.next()
        while let current = status, current.staleEvents == 0 { status = await updates.next() }
        #expect(status == SimulationStatus(staleEvents: 1, failsNextOutcome: false))
        #expect(transfer.machine.state == .paused(request: 1, percent: 25))
        #expect(
            Self.events(transfer) == [
                "start moved", "progress(request: 1, percent: 25) updated", "pause moved",
                "progress(request: 1, percent: 26) stale",
            ])
    }

    @Test func aResumedTransferContinuesFromItsPercentWithTheSameRequest() async {
        let clock = TestClock()
        let transfer = Self.make(clock, timing: SimulationTiming(tick: .seconds(1), ticksPerTransfer: 4...4, lateCallbackDelay: .seconds(100)))
        defer { transfer.stop() }
        transfer.machine.send(.start)
        await Self.tick(clock)
        _ = await Self.waitFor(transfer) { $0 == .running(request: 1, percent: 25) }
        await clock.sleepers(atLeast: 1)
        transfer.machine.send(.pause)
        transfer.machine.send(.resume)
        // Two sleepers: the old worker waiting to send late, the new one's first tick.
        await clock.sleepers(atLeast: 2)
        clock.advance(by: .seconds(1))
        let next = await Self.waitFor(transfer) { $0 != .running(request: 1, percent: 25) }
        #expect(next == .running(request: 1, percent: 50))
    }

    @Test func theSameSeedDrawsTheSameOutcomeTimes() async {
        let timing = SimulationTiming(tick: .seconds(1), ticksPerTransfer: 1...1000, lateCallbackDelay: .seconds(1))
        var first = SimulationRandom(seed: 42)
        var second = SimulationRandom(seed: 42)
        let a = (0..<8).map { _ in Int.random(in: timing.ticksPerTransfer, using: &first) }
        let b = (0..<8).map { _ in Int.random(in: timing.ticksPerTransfer, using: &second) }
        #expect(a == b)
        #expect(Set(a).count > 1)
    }
}
