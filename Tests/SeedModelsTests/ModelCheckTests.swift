import SeedModels
import StateMachineKit
import StateMachineTesting
import Testing

/// A transfer model together with the percent it had before the last transition, when that
/// transition stayed within one running phase: an observer that turns "never decreasing within a
/// running phase" into a property of single states, which `checkModel` checks.
struct ObservedTransfer: Hashable {
    var model: TransferModel
    var previousPercent: Int?

    static func transition(_ observed: ObservedTransfer, _ event: TransferEvent) -> Transition<
        ObservedTransfer, TransferEvent
    > {
        func observe(_ next: TransferModel) -> ObservedTransfer {
            switch (observed.model.phase, next.phase) {
            case (.running(let before, let old), .running(let after, _)) where before == after:
                ObservedTransfer(model: next, previousPercent: old)
            case (_, .idle), (_, .running), (_, .paused), (_, .completed), (_, .failed):
                ObservedTransfer(model: next, previousPercent: nil)
            }
        }
        return TransferModel.transition(observed.model, event).mapState(observe)
    }

    /// Percent within 0…100 and not below the previous one in the same running phase; settled
    /// phases hold no request and retain nothing but a failure's percent.
    var isValid: Bool {
        guard model.isConsistent else { return false }
        if case .running(_, let percent) = model.phase, let previousPercent { return percent >= previousPercent }
        return true
    }
}

@Suite struct ModelCheckTests {
    /// Cancel, restart, delayed and backward progress, stale and duplicate outcomes, ids never issued.
    static let transferEvents: [TransferEvent] = [
        .start, .pause, .resume, .cancel, .retry,
        .progress(request: 1, percent: 30), .progress(request: 1, percent: 10), .progress(request: 1, percent: 100),
        .progress(request: 1, percent: 101), .progress(request: 2, percent: 60), .progress(request: 2, percent: 20),
        .progress(request: 3, percent: 90), .progress(request: 4, percent: 50),
        .succeeded(request: 1, file: "a"), .succeeded(request: 2, file: ""), .succeeded(request: 2, file: "b"),
        .succeeded(request: 3, file: "c"), .failed(request: 1, message: "x"), .failed(request: 2, message: "y"),
        .failed(request: 3, message: "z"),
    ]

    @Test func transferInvariantsHoldOnRandomSequences() {
        expectModel(
            from: ObservedTransfer(model: .initial, previousPercent: nil), events: Self.transferEvents,
            transition: ObservedTransfer.transition, invariant: \.isValid, sequences: 500, maximumLength: 40,
            seed: 0x000_7EA5)
    }

    /// The observer is not vacuous: a transition that lets progress go backwards is caught and
    /// shrunk to the shortest sequence showing it.
    @Test func aBackwardProgressBugIsFoundAndShrunk() throws {
        let buggy: (ObservedTransfer, TransferEvent) -> Transition<ObservedTransfer, TransferEvent> = {
            observed, event in
            if case .running(let request, _) = observed.model.phase, case .progress(request, let percent) = event,
                (0...100).contains(percent)
            {
                let next = TransferModel(
                    phase: .running(request: request, percent: percent), lastRequest: observed.model.lastRequest)
                return .update(ObservedTransfer(model: next, previousPercent: observed.model.phase.percent))
            }
            return ObservedTransfer.transition(observed, event)
        }
        let result = checkModel(
            from: ObservedTransfer(model: .initial, previousPercent: nil),
            events: [
                .start, .pause, .resume, .cancel, .progress(request: 1, percent: 30),
                .progress(request: 1, percent: 10), .succeeded(request: 1, file: "a"),
            ],
            transition: buggy, invariant: { $0.isValid }, seed: 1)
        let found = try #require(result)
        #expect(found.events == [.start, .progress(request: 1, percent: 30), .progress(request: 1, percent: 10)])
    }

    @Test func uploadProgressStaysWithinBounds() {
        expectModel(
            from: UploadState.idle,
            events: [
                .start(upload: 1), .progress(upload: 1, fraction: 0.25), .progress(upload: 1, fraction: 0.75),
                .progress(upload: 1, fraction: 1), .progress(upload: 1, fraction: 1.5),
                .progress(upload: 1, fraction: -0.1), .pause, .resume, .complete(upload: 1),
                .fail(upload: 1, category: .network, message: "offline"), .retry(upload: 2),
                .progress(upload: 2, fraction: 0.5), .complete(upload: 2), .cancel,
            ],
            transition: UploadState.transition,
            invariant: { state in
                switch state {
                case .uploading(_, let progress), .paused(_, let progress): (0...1).contains(progress)
                case .idle, .completed, .failed: true
                }
            },
            seed: 0x0001_0AD0)
    }

    /// The previous items a loading or failed screen shows are always the items last loaded:
    /// checked through an observer that remembers them.
    @Test func loadShowsTheLastLoadedItemsAsPrevious() {
        struct Observed: Hashable {
            var state: LoadState
            var lastLoaded: [String]?
        }
        expectModel(
            from: Observed(state: .idle, lastLoaded: nil),
            events: [LoadAction.refreshTapped, .succeeded(["a"]), .succeeded([]), .failed("offline")],
            transition: { observed, action in
                func observe(_ next: LoadState) -> Observed {
                    if case .loaded(let items) = next { return Observed(state: next, lastLoaded: items) }
                    return Observed(state: next, lastLoaded: observed.lastLoaded)
                }
                return LoadState.transition(observed.state, action).mapState(observe)
            },
            invariant: { observed in
                switch observed.state {
                case .idle: observed.lastLoaded == nil
                case .loaded(let items): items == observed.lastLoaded
                case .loading(let previous), .failed(_, let previous): previous == observed.lastLoaded
                }
            },
            seed: 0x0002_10AD)
    }
}
