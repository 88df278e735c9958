import StateMachineKit

/// The whole state of a transfer owner: the visible ``TransferState`` plus the two facts its pure
/// transition needs that the phase cannot carry without changing seed 000's cases.
///
/// - `lastRequest` is the seed's `generation`: the newest request id issued. It survives cancel,
///   completion and failure so `start` allocates `lastRequest + 1` purely, and an id is never
///   reused within this owner's lifetime.
/// - `retainedPercent` is what a failure preserves for ``TransferEvent/retry``: the percent the
///   failed request had transferred. It exists only in the failed phase.
///
/// **Retry** (seed 000's exercise) creates a *new* request id, so an old request's late success or
/// failure is stale and can never settle the retry; the new request continues from the retained
/// percent (the content already downloaded). `start` after a failure begins again from 0.
///
/// **Verdicts.** Accepted progress is `.update` (same visit); an equal percent is `.stay`. Phase
/// changes are `.to`. `.ignore` is for ordinary races that carry no news: another (stale) request's
/// outcome, a duplicate settled outcome, progress arriving while paused, and a user action the
/// phase cannot take (pause when not running, resume when not paused, start while a request is in
/// flight, cancel with nothing in flight, retry when not failed — a double click, a button pressed
/// as the phase moved on). `.invalid(reason)` is for what must never happen: an outcome of the
/// current request that breaks a rule (percent above 100 or going backwards, completion without a
/// file) or an outcome naming a request id that was never issued.
public struct TransferModel: Hashable, Sendable {
    /// The visible phase.
    public var phase: TransferState
    /// The newest request id issued so far; 0 before the first start.
    public var lastRequest: Int
    /// In the failed phase, the percent the failed request had reached, which a retry resumes
    /// from; nil in every other phase.
    public var retainedPercent: Int?

    /// A model in `phase` having issued ids up to `lastRequest`.
    public init(phase: TransferState = .idle, lastRequest: Int = 0, retainedPercent: Int? = nil) {
        self.phase = phase
        self.lastRequest = lastRequest
        self.retainedPercent = retainedPercent
    }

    /// Idle, no request issued yet.
    public static let initial = TransferModel()

    /// The transfer's transition function: pure and total, the specification the engine runs.
    public static func transition(
        _ model: TransferModel, _ event: TransferEvent
    ) -> Transition<TransferModel, TransferEvent> {
        decide(model, event)
    }

    /// The decision for `event` in `model` together with the effects to run after committing it.
    ///
    /// The effects are ``effects(from:to:)`` of the transition taken, so a driver that only sees
    /// recorded transitions (the engine's history, before and after) derives the same work.
    public static func plan(_ model: TransferModel, _ event: TransferEvent) -> TransferPlan {
        let decision = decide(model, event)
        return TransferPlan(decision, effects: effects(from: model, to: decision.target(from: model)))
    }

    /// The work a change from `before` to `after` asks of the effect driver: a request that
    /// becomes running begins (fresh, resumed or retried, from its percent); a running request
    /// that becomes paused is suspended; a request cancelled back to idle is abandoned. Settling
    /// (completed, failed) needs nothing: the work has ended by itself.
    public static func effects(from before: TransferModel, to after: TransferModel) -> [TransferEffect] {
        switch (before.phase, after.phase) {
        case (.running(let old, _), .running(let new, _)) where old == new:
            return []
        case (_, .running(let request, let percent)):
            return [.begin(request: request, percent: percent)]
        case (.running(let old, _), .paused(let new, _)) where old == new:
            return [.suspend(request: new)]
        case (.running(let request, _), .idle), (.paused(let request, _), .idle):
            return [.cancel(request: request)]
        case (_, .idle), (_, .paused), (_, .completed), (_, .failed):
            return []
        }
    }

    private static func decide(
        _ model: TransferModel, _ event: TransferEvent
    ) -> Transition<TransferModel, TransferEvent> {
        if let request = event.request, request < 1 || request > model.lastRequest {
            return .invalid(
                "\(event) names request \(request), which was never started (the newest is \(model.lastRequest))")
        }
        switch event {
        case .start:
            guard model.phase.activeRequest == nil else { return .ignore }
            return model.begin(from: 0)
        case .retry:
            guard case .failed = model.phase else { return .ignore }
            return model.begin(from: model.retainedPercent ?? 0)
        case .progress(let request, let percent):
            switch model.phase {
            case .running(let current, let old) where current == request:
                if percent > 100 { return .invalid("progress of request \(request) to \(percent) is above 100") }
                if percent < old {
                    return .invalid("progress of request \(request) went back from \(old) to \(percent)")
                }
                if percent == old { return .stay }
                return .update(model.with(.running(request: request, percent: percent)))
            case .idle, .running, .paused, .completed, .failed:
                // Another request's progress is stale; the current one's while paused is a late
                // report racing with the pause (seed 000: "progress while paused is ignored").
                return .ignore
            }
        case .pause:
            guard case .running(let request, let percent) = model.phase else { return .ignore }
            return .to(model.with(.paused(request: request, percent: percent)))
        case .resume:
            guard case .paused(let request, let percent) = model.phase else { return .ignore }
            return .to(model.with(.running(request: request, percent: percent)))
        case .succeeded(let request, let file):
            guard model.phase.activeRequest == request else { return .ignore }
            guard !file.isEmpty else { return .invalid("completion of request \(request) has no file") }
            // Accepted while paused too: the work finished before the pause took effect.
            return .to(model.with(.completed(file: file)))
        case .failed(let request, let message):
            guard model.phase.activeRequest == request else { return .ignore }
            var next = model.with(.failed(message: message))
            next.retainedPercent = model.phase.percent
            return .to(next)
        case .cancel:
            guard model.phase.activeRequest != nil else { return .ignore }
            return .to(model.with(.idle))
        }
    }

    /// A new request continuing from `percent`, with a never-used id.
    private func begin(from percent: Int) -> Transition<TransferModel, TransferEvent> {
        guard lastRequest < Int.max else { return .invalid("request ids are exhausted") }
        let request = lastRequest + 1
        return .to(TransferModel(phase: .running(request: request, percent: percent), lastRequest: request))
    }

    /// The same model in another phase; anything retained for a retry is dropped.
    private func with(_ phase: TransferState) -> TransferModel {
        TransferModel(phase: phase, lastRequest: lastRequest)
    }

    /// The facts that must hold in every reachable model: percent within 0…100, the active
    /// request is the newest id, a completed file is not empty, and only a failure retains
    /// anything (settled phases hold no request by construction).
    public var isConsistent: Bool {
        switch phase {
        case .idle:
            lastRequest >= 0 && retainedPercent == nil
        case .running(let request, let percent), .paused(let request, let percent):
            request == lastRequest && request >= 1 && (0...100).contains(percent) && retainedPercent == nil
        case .completed(let file):
            lastRequest >= 1 && !file.isEmpty && retainedPercent == nil
        case .failed:
            lastRequest >= 1 && retainedPercent.map { (0...100).contains($0) } ?? true
        }
    }
}

extension TransferModel: CanonicalText {
    /// The form a transfer model is written in; `retainedPercent` is left out when nil, as the
    /// memberwise initialiser's default allows in Swift.
    public static let canonicalForms = [
        "TransferModel(phase: TransferState, lastRequest: Int, retainedPercent: Int)"
    ]

    /// The model as canonical text's syntax tree, e.g.
    /// `TransferModel(phase: running(request: 1, percent: 20), lastRequest: 1)`.
    public var canonicalValue: CanonicalValue {
        var arguments: [CanonicalArgument] = [
            .labelled("phase", phase.canonicalValue), .labelled("lastRequest", .int(lastRequest)),
        ]
        if let retainedPercent { arguments.append(.labelled("retainedPercent", .int(retainedPercent))) }
        return .call("TransferModel", arguments)
    }

    /// Rebuilds a model from canonical text's syntax tree.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        guard value.caseName == "TransferModel" else {
            throw CanonicalValue.unknownCase(value, of: "transfer model")
        }
        let form = Self.canonicalForms[0]
        let arguments: [CanonicalValue]
        do {
            arguments = try value.arguments(of: form, labels: ["phase", "lastRequest", "retainedPercent"])
        } catch {
            arguments = try value.arguments(of: form, labels: ["phase", "lastRequest"])
        }
        self.init(
            phase: try TransferState(canonicalValue: arguments[0]),
            lastRequest: try arguments[1].intValue("lastRequest"),
            retainedPercent: arguments.count > 2 ? try arguments[2].intValue("retainedPercent") : nil)
    }
}

extension TransferModel: MachineModel {
    /// Its machine's label unless told otherwise.
    public static let machineLabel = "transfer"
}
