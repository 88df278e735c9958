import SeedModels
import StateMachineKit
import StateMachineTesting
import Testing

/// A transfer on the engine with simulated work: while running, every second on the test clock the
/// work reports 40 more percent, and at 100 it reports success. Pausing or cancelling ends the
/// visit, so the work is cancelled and anything it still sends is stale.
private func makeLiveTransfer() -> (StateMachine<TransferModel, TransferEvent>, TestClock) {
    let clock = TestClock()
    let transfer = TransferMachine(label: "live transfer", historyLimit: 256, clock: AnyClock(clock))
    let machine = transfer.engine
    machine.whileIn(where: { if case .running = $0.phase { true } else { false } }, label: "simulated work") {
        [weak machine] sender in
        while let machine, case .running(let request, let percent) = machine.state.phase {
            do { try await clock.sleep(for: .seconds(1)) } catch { return }
            if percent >= 100 {
                sender.send(.succeeded(request: request, file: "file-\(request)"))
                return
            }
            sender.send(.progress(request: request, percent: min(percent + 40, 100)))
        }
    }
    return (machine, clock)
}

@Suite struct LiveTransferTests {
    static let steps: [LiveStep<TransferEvent>] = [
        .send(.start), .send(.pause), .send(.resume), .send(.cancel), .send(.retry),
        .send(.failed(request: 1, message: "offline")), .send(.failed(request: 2, message: "offline")),
        .send(.progress(request: 1, percent: 90)), .advance(.seconds(1)), .advance(.seconds(1)),
    ]

    /// The model's invariants hold with real work and time in play, and every rejected event left
    /// the state as it was.
    @Test func invariantsHoldWithWorkAndTime() async {
        let found = await checkLiveModel(
            make: makeLiveTransfer, events: Self.steps, invariant: \.isConsistent, sequences: 40, maximumLength: 15,
            seed: 0x11_7E, environment: [:])
        #expect(found == nil)
    }

    /// Work paused mid-way never reports again for that visit; resuming starts new work from the
    /// paused percent under the same request id.
    /// Reads `states` until the machine is in `phase`; false when the machine stopped first.
    static func reach(
        _ phase: TransferState, _ states: inout AsyncStream<TransferModel>.Iterator
    ) async -> Bool {
        while let state = await states.next() {
            if state.phase == phase { return true }
        }
        return false
    }

    @Test(.timeLimit(.minutes(10))) func pausedWorkStopsAndResumedWorkContinues() async {
        let (machine, clock) = makeLiveTransfer()
        defer { machine.stop() }
        var states = machine.states().makeAsyncIterator()
        machine.send(.start)
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        #expect(await Self.reach(.running(request: 1, percent: 40), &states))
        machine.send(.pause)
        clock.advance(by: .seconds(5))
        #expect(machine.state.phase == .paused(request: 1, percent: 40))
        machine.send(.resume)
        for expected in [80, 100] {
            await clock.sleepers(atLeast: 1)
            clock.advance(by: .seconds(1))
            #expect(await Self.reach(.running(request: 1, percent: expected), &states))
        }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        #expect(await Self.reach(.completed(file: "file-1"), &states))
        #expect(machine.state == TransferModel(phase: .completed(file: "file-1"), lastRequest: 1))
    }
}
