import StateMachineKit

/// The phase of an upload (seed 001): only uploading and paused carry progress, so the model
/// cannot claim completion while still showing a percentage.
public enum UploadState: Hashable, Sendable {
    /// Nothing is uploading.
    case idle
    /// Uploading, with `progress` as a fraction 0…1.
    case uploading(progress: Double)
    /// Paused at `progress`; resuming continues from it.
    case paused(progress: Double)
    /// The upload finished.
    case completed
    /// The upload failed with `message`; a retry is possible.
    case failed(message: String)

    /// Whether Resume applies (seed 001): only a paused upload resumes.
    public var canResume: Bool {
        if case .paused = self { return true }
        return false
    }

    /// Whether Pause applies: only an upload in progress pauses.
    public var canPause: Bool {
        if case .uploading = self { return true }
        return false
    }

    /// Whether Retry applies: only a failed upload is retried.
    public var canRetry: Bool {
        if case .failed = self { return true }
        return false
    }

    /// Whether Cancel applies: an upload in progress or paused can be cancelled.
    public var canCancel: Bool {
        switch self {
        case .uploading, .paused: true
        case .idle, .completed, .failed: false
        }
    }

    /// Pauses an upload in progress; does nothing in any other phase (seed 001's sample method).
    /// Use ``checkedPause()`` to learn why nothing happened.
    public mutating func pause() {
        guard case .uploading(let progress) = self else { return }
        self = .paused(progress: progress)
    }

    /// Resumes a paused upload; does nothing in any other phase (seed 001's sample method).
    /// Use ``checkedResume()`` to learn why nothing happened.
    public mutating func resume() {
        guard case .paused(let progress) = self else { return }
        self = .uploading(progress: progress)
    }

    /// Pauses, or throws naming why the upload cannot pause (after completion, while idle, …).
    public mutating func checkedPause() throws(UploadStateError) {
        try apply(.pause)
    }

    /// Resumes, or throws naming why the upload cannot resume (while uploading, after failure, …).
    public mutating func checkedResume() throws(UploadStateError) {
        try apply(.resume)
    }

    /// Applies `event` through ``transition(_:_:)``; throws when the event is impossible here
    /// (`.invalid`). An ignored late callback changes nothing and does not throw.
    public mutating func apply(_ event: UploadEvent) throws(UploadStateError) {
        let decision = Self.transition(self, event)
        if case .invalid(let reason) = decision {
            throw UploadStateError(state: self, event: event, reason: reason)
        }
        self = decision.target(from: self)
    }

    /// The upload's transition function: pure and total.
    ///
    /// User actions (`start`, `pause`, `resume`, `retry`, `cancel`) that the phase does not allow
    /// are `.invalid` with the reason, which the throwing variants pass on. Task callbacks
    /// (`progress`, `complete`, `fail`) arriving when nothing is uploading are late reports of a
    /// finished or cancelled task and are `.ignore`d; progress while paused is ignored too. A
    /// completion or failure while paused is accepted: the task finished before the pause took
    /// effect (as in seed 000). Progress must stay within 0…1 and never go back.
    public static func transition(
        _ state: UploadState, _ event: UploadEvent
    ) -> Transition<UploadState, UploadEvent> {
        switch (state, event) {
        case (.idle, .start), (.completed, .start):
            return .to(.uploading(progress: 0))
        case (.failed, .retry):
            return .to(.uploading(progress: 0))
        case (.uploading(let old), .progress(let new)):
            guard new.isFinite, new <= 1 else { return .invalid("progress \(new) is outside 0…1") }
            guard new >= old else { return .invalid("progress went back from \(old) to \(new)") }
            return new == old ? .stay : .update(.uploading(progress: new))
        case (.uploading(let progress), .pause):
            return .to(.paused(progress: progress))
        case (.paused(let progress), .resume):
            return .to(.uploading(progress: progress))
        case (.uploading, .complete), (.paused, .complete):
            return .to(.completed)
        case (.uploading, .fail(let message)), (.paused, .fail(let message)):
            return .to(.failed(message: message))
        case (.uploading, .cancel), (.paused, .cancel):
            return .to(.idle)
        case (.paused, .progress), (.idle, .progress), (.completed, .progress), (.failed, .progress),
            (.idle, .complete), (.completed, .complete), (.failed, .complete),
            (.idle, .fail), (.completed, .fail), (.failed, .fail):
            return .ignore
        case (.uploading, .start), (.paused, .start):
            return .invalid("start while \(state.phaseName): an upload is already in progress")
        case (.failed, .start):
            return .invalid("start after a failure: retry the failed upload or cancel it first")
        case (.idle, .pause), (.paused, .pause), (.completed, .pause), (.failed, .pause):
            return .invalid("pause while \(state.phaseName): only an upload in progress can pause")
        case (.idle, .resume), (.uploading, .resume), (.completed, .resume), (.failed, .resume):
            return .invalid("resume while \(state.phaseName): only a paused upload can resume")
        case (.idle, .retry), (.uploading, .retry), (.paused, .retry), (.completed, .retry):
            return .invalid("retry while \(state.phaseName): only a failed upload can be retried")
        case (.idle, .cancel), (.completed, .cancel), (.failed, .cancel):
            return .invalid("cancel while \(state.phaseName): only an upload in progress or paused can be cancelled")
        }
    }

    /// The phase in words, for reasons: `idle`, `uploading`, `paused`, `completed`, `failed`.
    var phaseName: String {
        switch self {
        case .idle: "idle"
        case .uploading: "uploading"
        case .paused: "paused"
        case .completed: "completed"
        case .failed: "failed"
        }
    }
}

extension UploadState: CanonicalCases {
    /// What an error calls an upload state.
    public static let canonicalTypeName = "upload state"

    /// The forms an upload state is written in.
    public static let canonicalCases: [CanonicalCase<UploadState>] = [
        CanonicalCase("idle", .idle),
        CanonicalCase("uploading", .labelled("progress", "Double")) { arguments throws(CanonicalTextError) in
            .uploading(progress: try arguments.double(0))
        },
        CanonicalCase("paused", .labelled("progress", "Double")) { arguments throws(CanonicalTextError) in
            .paused(progress: try arguments.double(0))
        },
        CanonicalCase("completed", .completed),
        CanonicalCase("failed", .labelled("message", "String")) { arguments throws(CanonicalTextError) in
            .failed(message: try arguments.string(0))
        },
    ]

    /// The state as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .idle: Self.canonical("idle")
        case .uploading(let progress): Self.canonical("uploading", .double(progress))
        case .paused(let progress): Self.canonical("paused", .double(progress))
        case .completed: Self.canonical("completed")
        case .failed(let message): Self.canonical("failed", .string(message))
        }
    }
}

extension UploadState: MachineModel {
    /// A new machine starts idle.
    public static var initial: UploadState { .idle }
    /// Its machine's label unless told otherwise.
    public static let machineLabel = "upload"
}
