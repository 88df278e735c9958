import DashboardApp
import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import Testing

/// The simulated effect adapter on a manual scheduler: progress through the sender of its run, an outcome
/// after the drawn number of ticks, a failure when asked, and late callbacks from ended runs dropped as stale.
@Suite(.timeLimit(.minutes(1))) struct SimulatedTransferTests {
    static let timing = SimulationTiming(tick: .seconds(1), ticksPerTransfer: 4...4, lateCallbackDelay: .seconds(2))

    static func make(_ scheduler: ManualClock, timing: SimulationTiming = timing) -> SimulatedTransfer {
        SimulatedTransfer(name: "photos.tar", scheduler: scheduler, random: SplitMix64(seed: 7), timing: timing)
    }

    /// Waits until the worker the current visit asks for has begun and scheduled its first tick. The machine's
    /// state is where the event the test sent left it; only the worker's setting up comes later.
    static func settle(_ transfer: SimulatedTransfer, _ scheduler: ManualClock) async {
        await scheduler.settle {
            transfer.isSetUp && (transfer.machine.state.activeRequest == nil || scheduler.pendingCount > 0)
        }
    }

    /// Sends `event` and waits until the run it asks for (if any) has scheduled its first tick.
    static func send(_ event: TransferEvent, to transfer: SimulatedTransfer, _ scheduler: ManualClock) async {
        transfer.machine.send(event)
        await settle(transfer, scheduler)
    }

    /// A transfer sent `.start`, its first run's worker set up.
    static func started(_ scheduler: ManualClock, timing: SimulationTiming = timing) async -> SimulatedTransfer {
        let transfer = make(scheduler, timing: timing)
        await send(.start, to: transfer, scheduler)
        return transfer
    }

    static func events(_ transfer: SimulatedTransfer) -> [String] {
        transfer.machine.engine.history.map { "\($0.event) \($0.outcome)" }
    }

    @Test func aStartedTransferProgressesToSuccess() async {
        let scheduler = ManualClock()
        let transfer = await Self.started(scheduler)
        defer { transfer.stop() }
        scheduler.advance(by: .seconds(4))
        #expect(transfer.machine.state == .completed(file: "photos.tar"))
        #expect(
            Self.events(transfer) == [
                "start moved", "progress(request: 1, percent: 25) updated", "progress(request: 1, percent: 50) updated",
                "progress(request: 1, percent: 75) updated", "progress(request: 1, percent: 100) updated",
                "succeeded(request: 1, file: \"photos.tar\") moved",
            ])
        #expect(transfer.status == TransferDriverStatus())
    }

    @Test func anArmedFailureIsTheNextOutcomeAndIsUsedUp() async {
        let scheduler = ManualClock()
        let transfer = Self.make(scheduler)
        defer { transfer.stop() }
        transfer.failNextOutcome()
        #expect(transfer.status == TransferDriverStatus(failsNextOutcome: true))
        await Self.send(.start, to: transfer, scheduler)
        scheduler.advance(by: .seconds(4))
        #expect(
            transfer.machine.model
                == TransferModel(phase: .failed(message: "simulated failure"), lastRequest: 1, retainedPercent: 100))
        #expect(transfer.status == TransferDriverStatus())
    }

    @Test func aPausedWorkersLateCallbackIsDroppedAsStaleAndCountedFromTheRecords() async {
        let scheduler = ManualClock()
        let transfer = await Self.started(scheduler)
        defer { transfer.stop() }
        scheduler.advance(by: .seconds(1))
        transfer.machine.send(.pause)
        scheduler.advance(by: .seconds(2))
        #expect(transfer.machine.state == .paused(request: 1, percent: 25))
        #expect(
            Self.events(transfer) == [
                "start moved", "progress(request: 1, percent: 25) updated", "pause moved",
                "progress(request: 1, percent: 26) stale",
            ])
        var tally = RecordTally()
        tally.add(transfer.machine.engine.firstBatch)
        #expect(tally == RecordTally(lastSequence: 4, stale: 1))
    }

    @Test func aResumedTransferContinuesFromItsPercentWithTheSameRequest() async {
        let scheduler = ManualClock()
        let transfer = await Self.started(
            scheduler,
            timing: SimulationTiming(tick: .seconds(1), ticksPerTransfer: 4...4, lateCallbackDelay: .seconds(100)))
        defer { transfer.stop() }
        scheduler.advance(by: .seconds(1))
        transfer.machine.send(.pause)
        await Self.send(.resume, to: transfer, scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(transfer.machine.state == .running(request: 1, percent: 50))
    }

    @Test func theSameSeedDrawsTheSameOutcomeTimes() {
        let timing = SimulationTiming(tick: .seconds(1), ticksPerTransfer: 1...1000, lateCallbackDelay: .seconds(1))
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        let a = (0..<8).map { _ in Int.random(in: timing.ticksPerTransfer, using: &first) }
        let b = (0..<8).map { _ in Int.random(in: timing.ticksPerTransfer, using: &second) }
        #expect(a == b)
        #expect(Set(a).count > 1)
    }
}
