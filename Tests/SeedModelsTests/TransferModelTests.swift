import SeedModels
import StateMachineKit
import Testing

/// Drives the pure transfer transition the way the engine does: apply the decision's target.
final class PureTransfer {
    var model = TransferModel.initial
    var state: TransferState { model.phase }

    @discardableResult
    func send(_ event: TransferEvent) -> Bool {
        let decision = TransferModel.transition(model, event)
        model = decision.target(from: model)
        return decision.isAccepted
    }
}

/// Every assertion of seed 000's example, in order, against anything that takes transfer events (true when
/// one is accepted) and shows the phase.
func expectSeedExample(send: (TransferEvent) -> Bool, state: () -> TransferState) {
    #expect(send(.start))
    #expect(send(.progress(request: 1, percent: 20)))
    #expect(send(.pause))
    #expect(!send(.progress(request: 1, percent: 30)))
    #expect(state() == .paused(request: 1, percent: 20))
    #expect(send(.succeeded(request: 1, file: "file-1")))
    #expect(!send(.succeeded(request: 1, file: "duplicate")))
    #expect(send(.start))
    #expect(send(.cancel))
    #expect(!send(.failed(request: 2, message: "Late cancellation outcome")))
    #expect(send(.start))
    #expect(!send(.progress(request: 2, percent: 90)))
    #expect(send(.progress(request: 3, percent: 40)))
    #expect(!send(.progress(request: 3, percent: 10)))
    #expect(state() == .running(request: 3, percent: 40))
}

@Suite struct TransferModelTests {
    /// Every assertion of seed 000's example, in order.
    @Test func seedExampleHoldsOnThePureTransition() {
        let transfer = PureTransfer()
        expectSeedExample(send: transfer.send, state: { transfer.state })
        #expect(transfer.model == TransferModel(phase: .running(request: 3, percent: 40), lastRequest: 3))
    }

    static func model(_ phase: TransferState, last: Int, retained: Int? = nil) -> TransferModel {
        TransferModel(phase: phase, lastRequest: last, retainedPercent: retained)
    }

    static let idle0 = model(.idle, last: 0)
    static let idle2 = model(.idle, last: 2)
    static let running = model(.running(request: 2, percent: 40), last: 2)
    static let paused = model(.paused(request: 2, percent: 40), last: 2)
    static let completed = model(.completed(file: "f"), last: 2)
    static let failed = model(.failed(message: "m"), last: 2, retained: 40)

    typealias Row = (TransferModel, TransferEvent, TransferPlan)

    /// The whole transition table: every phase against every kind of event, with effects.
    static let table: [Row] =
        [
            // start: a fresh id from every settled phase, ignored with a request in flight.
            (
                idle0, .start,
                TransferPlan(
                    .to(model(.running(request: 1, percent: 0), last: 1)),
                    effects: [.begin(request: 1, percent: 0)])
            ),
            (running, .start, TransferPlan(.ignore)),
            (paused, .start, TransferPlan(.ignore)),
            // progress: update, stay, or the current request breaking a rule.
            (
                running, .progress(request: 2, percent: 41),
                TransferPlan(.update(model(.running(request: 2, percent: 41), last: 2)))
            ),
            (
                running, .progress(request: 2, percent: 100),
                TransferPlan(.update(model(.running(request: 2, percent: 100), last: 2)))
            ),
            (running, .progress(request: 2, percent: 40), TransferPlan(.stay)),
            (
                running, .progress(request: 2, percent: 39),
                TransferPlan(.invalid("progress of request 2 went back from 40 to 39"))
            ),
            (
                running, .progress(request: 2, percent: -1),
                TransferPlan(.invalid("progress of request 2 went back from 40 to -1"))
            ),
            (
                running, .progress(request: 2, percent: 101),
                TransferPlan(.invalid("progress of request 2 to 101 is above 100"))
            ),
            (running, .progress(request: 1, percent: 90), TransferPlan(.ignore)),
            (
                running, .progress(request: 3, percent: 90),
                TransferPlan(
                    .invalid(
                        "progress(request: 3, percent: 90) names request 3, which was never started (the newest is 2)")
                )
            ),
            (
                running, .progress(request: 0, percent: 90),
                TransferPlan(
                    .invalid(
                        "progress(request: 0, percent: 90) names request 0, which was never started (the newest is 2)")
                )
            ),
            (paused, .progress(request: 2, percent: 50), TransferPlan(.ignore)),
            (idle2, .progress(request: 2, percent: 50), TransferPlan(.ignore)),
            (completed, .progress(request: 2, percent: 50), TransferPlan(.ignore)),
            (failed, .progress(request: 2, percent: 50), TransferPlan(.ignore)),
            (
                idle0, .progress(request: 1, percent: 0),
                TransferPlan(
                    .invalid(
                        "progress(request: 1, percent: 0) names request 1, which was never started (the newest is 0)"))
            ),
            // pause and resume keep the request id; the driver suspends and begins again.
            (running, .pause, TransferPlan(.to(paused), effects: [.suspend(request: 2)])),
            (paused, .pause, TransferPlan(.ignore)),
            (idle2, .pause, TransferPlan(.ignore)),
            (completed, .pause, TransferPlan(.ignore)),
            (failed, .pause, TransferPlan(.ignore)),
            (paused, .resume, TransferPlan(.to(running), effects: [.begin(request: 2, percent: 40)])),
            (running, .resume, TransferPlan(.ignore)),
            (idle2, .resume, TransferPlan(.ignore)),
            (completed, .resume, TransferPlan(.ignore)),
            (failed, .resume, TransferPlan(.ignore)),
            // outcomes: the current request settles, from running or paused; stale ones are ignored.
            (running, .succeeded(request: 2, file: "out"), TransferPlan(.to(model(.completed(file: "out"), last: 2)))),
            (paused, .succeeded(request: 2, file: "out"), TransferPlan(.to(model(.completed(file: "out"), last: 2)))),
            (running, .succeeded(request: 2, file: ""), TransferPlan(.invalid("completion of request 2 has no file"))),
            (paused, .succeeded(request: 2, file: ""), TransferPlan(.invalid("completion of request 2 has no file"))),
            (running, .succeeded(request: 1, file: "old"), TransferPlan(.ignore)),
            (running, .succeeded(request: 1, file: ""), TransferPlan(.ignore)),
            (completed, .succeeded(request: 2, file: "duplicate"), TransferPlan(.ignore)),
            (failed, .succeeded(request: 2, file: "late"), TransferPlan(.ignore)),
            (idle2, .succeeded(request: 2, file: "late"), TransferPlan(.ignore)),
            (running, .failed(request: 2, message: "m"), TransferPlan(.to(failed))),
            (paused, .failed(request: 2, message: "m"), TransferPlan(.to(failed))),
            (
                model(.running(request: 2, percent: 0), last: 2), .failed(request: 2, message: ""),
                TransferPlan(.to(model(.failed(message: ""), last: 2, retained: 0)))
            ),
            (running, .failed(request: 1, message: "old"), TransferPlan(.ignore)),
            (failed, .failed(request: 2, message: "duplicate"), TransferPlan(.ignore)),
            (completed, .failed(request: 2, message: "late"), TransferPlan(.ignore)),
            (idle2, .failed(request: 2, message: "late"), TransferPlan(.ignore)),
            // cancel abandons the request; nothing to cancel is ignored.
            (running, .cancel, TransferPlan(.to(idle2), effects: [.cancel(request: 2)])),
            (paused, .cancel, TransferPlan(.to(idle2), effects: [.cancel(request: 2)])),
            (idle2, .cancel, TransferPlan(.ignore)),
            (completed, .cancel, TransferPlan(.ignore)),
            (failed, .cancel, TransferPlan(.ignore)),
            // retry: a new id continuing from the retained percent.
            (
                failed, .retry,
                TransferPlan(
                    .to(model(.running(request: 3, percent: 40), last: 3)),
                    effects: [.begin(request: 3, percent: 40)])
            ),
            (
                model(.failed(message: "m"), last: 2), .retry,
                TransferPlan(
                    .to(model(.running(request: 3, percent: 0), last: 3)), effects: [.begin(request: 3, percent: 0)])
            ),
            (running, .retry, TransferPlan(.ignore)),
            (paused, .retry, TransferPlan(.ignore)),
            (idle2, .retry, TransferPlan(.ignore)),
            (completed, .retry, TransferPlan(.ignore)),
            (model(.failed(message: "m"), last: Int.max), .start, TransferPlan(.invalid("request ids are exhausted"))),
        ]
        // Every settled phase after request 2 starts request 3.
        + [idle2, completed, failed].map { settled -> Row in
            (
                settled, .start,
                TransferPlan(
                    .to(model(.running(request: 3, percent: 0), last: 3)), effects: [.begin(request: 3, percent: 0)])
            )
        }

    @Test(arguments: table) func transitionTable(model: TransferModel, event: TransferEvent, expected: TransferPlan) {
        #expect(TransferModel.plan(model, event) == expected)
        #expect(TransferModel.transition(model, event) == expected.transition)
    }

    @Test func retryGetsANewIdSoTheOldRequestCannotSettleIt() {
        let transfer = PureTransfer()
        transfer.send(.start)
        transfer.send(.progress(request: 1, percent: 60))
        transfer.send(.failed(request: 1, message: "offline"))
        #expect(
            transfer.model == TransferModel(phase: .failed(message: "offline"), lastRequest: 1, retainedPercent: 60))
        #expect(transfer.send(.retry))
        #expect(transfer.state == .running(request: 2, percent: 60))
        #expect(!transfer.send(.succeeded(request: 1, file: "stale")))
        #expect(!transfer.send(.failed(request: 1, message: "stale")))
        #expect(!transfer.send(.progress(request: 1, percent: 90)))
        #expect(transfer.state == .running(request: 2, percent: 60))
        #expect(transfer.send(.succeeded(request: 2, file: "file-2")))
        #expect(transfer.model == TransferModel(phase: .completed(file: "file-2"), lastRequest: 2))
    }

    @Test func progressOneHundredIsNotCompletion() {
        let transfer = PureTransfer()
        transfer.send(.start)
        #expect(transfer.send(.progress(request: 1, percent: 100)))
        #expect(transfer.state == .running(request: 1, percent: 100))
        #expect(!transfer.send(.succeeded(request: 1, file: "")))
        #expect(transfer.state == .running(request: 1, percent: 100))
    }

    @Test func idsAreNeverReusedAcrossCancelAndRestart() {
        let transfer = PureTransfer()
        var seen: [Int] = []
        for _ in 0..<5 {
            transfer.send(.start)
            seen.append(transfer.state.activeRequest ?? 0)
            transfer.send(.cancel)
        }
        #expect(seen == [1, 2, 3, 4, 5])
    }
}
