import StateMachineKit

extension TransferModel {
    /// The events `statetui graph transfer` and the diagram explore: every user action, progress
    /// for request 1 that is accepted or above 100, a completion with and without a file, and a
    /// failure, all for request 1.
    public static let sampleEvents: [TransferEvent] = [
        .start, .progress(request: 1, percent: 50), .progress(request: 1, percent: 101), .pause, .resume,
        .succeeded(request: 1, file: "file-1"), .succeeded(request: 1, file: ""),
        .failed(request: 1, message: "offline"), .cancel, .retry,
    ]

    /// This model with request ids beyond `newestSampleRequest + 1` renumbered down to it.
    ///
    /// Every `start` allocates a new id, so the real model has infinitely many states. Events that
    /// only name ids up to `newestSampleRequest` cannot tell two newer ids apart (both are neither
    /// stale-and-known nor current for those events), so folding them onto one id gives a finite
    /// graph that behaves exactly like the real one for those events.
    public func folded(beyond newestSampleRequest: Int) -> TransferModel {
        let ceiling = newestSampleRequest + 1
        guard lastRequest > ceiling else { return self }
        var folded = self
        folded.lastRequest = ceiling
        switch phase {
        case .running(_, let percent): folded.phase = .running(request: ceiling, percent: percent)
        case .paused(_, let percent): folded.phase = .paused(request: ceiling, percent: percent)
        case .idle, .completed, .failed: break
        }
        return folded
    }

    /// ``transition(_:_:)`` with the target folded (``folded(beyond:)``) for exploration with
    /// events naming ids up to `newestSampleRequest`.
    static func foldedTransition(
        beyond newestSampleRequest: Int
    ) -> @Sendable (TransferModel, TransferEvent) -> Transition<TransferModel, TransferEvent> {
        { model, event in transition(model, event).mapState { $0.folded(beyond: newestSampleRequest) } }
    }

    /// Every state reachable from ``initial`` with ``sampleEvents`` (ids folded beyond request 1).
    public static func exploreSamples() -> StateGraph<TransferModel, TransferEvent> {
        StateGraph.explore(from: initial, events: sampleEvents, transition: foldedTransition(beyond: 1))
    }
}

extension UploadState {
    /// The events `statetui graph upload` and the diagram explore: one upload that fails over the network and
    /// is retried as a second, which continues from what the first had sent.
    public static let sampleEvents: [UploadEvent] = [
        .start(upload: 1), .progress(upload: 1, fraction: 0.5), .pause, .resume, .complete(upload: 1),
        .fail(upload: 1, category: .network, message: "offline"), .retry(upload: 2), .complete(upload: 2), .cancel,
    ]

    /// Every state reachable from idle with ``sampleEvents``.
    public static func exploreSamples() -> StateGraph<UploadState, UploadEvent> {
        StateGraph.explore(from: .idle, events: sampleEvents, transition: transition)
    }
}

extension LoadState {
    /// The actions `statetui graph load` and the diagram explore: seed 002's.
    public static let sampleActions: [LoadAction] = [.refreshTapped, .succeeded(["a", "b"]), .failed("offline")]

    /// Every state reachable from idle with ``sampleActions``.
    public static func exploreSamples() -> StateGraph<LoadState, LoadAction> {
        StateGraph.explore(from: .idle, events: sampleActions, transition: transition)
    }
}
