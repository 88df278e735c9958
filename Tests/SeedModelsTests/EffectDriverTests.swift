import SeedModels
import StateMachineKit
import Testing

/// A pretend network that runs transfer work only as the effect descriptions say, and reports
/// back through events, the way seed 000's external driver does.
final class SimulatedNetwork {
    /// Work in flight: request id → percent transferred.
    private(set) var jobs: [Int: Int] = [:]

    func perform(_ effect: TransferEffect) {
        switch effect {
        case .begin(let request, let percent): jobs[request] = percent
        case .suspend(let request), .cancel(let request): jobs[request] = nil
        }
    }

    /// The job for `request` moves on by `step` percent and reports it.
    func advance(_ request: Int, by step: Int) -> TransferEvent {
        let percent = min((jobs[request] ?? 0) + step, 100)
        jobs[request] = percent
        return .progress(request: request, percent: percent)
    }

    /// The job for `request` ends in a failure and reports it.
    func fail(_ request: Int, _ message: String) -> TransferEvent {
        jobs[request] = nil
        return .failed(request: request, message: message)
    }
}

/// Plans each event, commits it on the machine, and then performs the effects (commit before
/// starting work, as the seed advises).
struct TransferDriver {
    let machine = TransferMachine()
    let network = SimulatedNetwork()

    @discardableResult
    func send(_ event: TransferEvent) -> Outcome {
        let plan = TransferModel.plan(machine.model, event)
        let outcome = machine.apply(event)
        if outcome.verdict == plan.transition.verdict, outcome.verdict != .ignore, outcome.verdict != .invalid {
            plan.effects.forEach(network.perform)
        }
        return outcome
    }
}

@Suite struct EffectDriverTests {
    @Test func effectsDriveWorkAndCompletionsComeBackAsEvents() {
        let driver = TransferDriver()
        driver.send(.start)
        #expect(driver.network.jobs == [1: 0])
        driver.send(driver.network.advance(1, by: 30))
        driver.send(.pause)
        #expect(driver.network.jobs == [:])
        #expect(driver.machine.state == .paused(request: 1, percent: 30))
        driver.send(.resume)
        #expect(driver.network.jobs == [1: 30])
        driver.send(driver.network.advance(1, by: 20))
        driver.send(.cancel)
        #expect(driver.network.jobs == [:])
        driver.send(.start)
        #expect(driver.network.jobs == [2: 0])
        // A callback of the cancelled request, queued before the cancel took effect, arrives late.
        #expect(driver.send(.succeeded(request: 1, file: "late")) == .ignored)
        #expect(driver.send(driver.network.advance(2, by: 100)) == .updated)
        #expect(driver.machine.state == .running(request: 2, percent: 100))
        // Progress 100 is not completion: only the explicit outcome settles the transfer.
        #expect(driver.send(.succeeded(request: 2, file: "file-2")) == .moved)
        #expect(driver.machine.model == TransferModel(phase: .completed(file: "file-2"), lastRequest: 2))
    }

    @Test func retryBeginsNewWorkFromTheRetainedPercent() {
        let driver = TransferDriver()
        driver.send(.start)
        driver.send(driver.network.advance(1, by: 70))
        driver.send(driver.network.fail(1, "offline"))
        #expect(driver.network.jobs == [:])
        driver.send(.retry)
        #expect(driver.network.jobs == [2: 70])
        #expect(driver.machine.state == .running(request: 2, percent: 70))
        // A report of the failed request, queued before its failure, arrives late: stale.
        #expect(driver.send(.progress(request: 1, percent: 80)) == .ignored)
        #expect(driver.machine.state == .running(request: 2, percent: 70))
    }
}
