import StateMachineKit

/// The phase of an upload (seed 001): only uploading and paused carry progress, so the model
/// cannot claim completion while still showing a percentage.
///
/// Every upload in flight carries its identity, `upload`, which the upload owner gives each start and
/// retry: a report from an earlier task (its progress, completion or failure arriving after a cancel and
/// a new start) names another upload and changes nothing. A failure keeps its category and what a retry
/// needs (seed 001: "retain a useful error category and enough request information to retry").
public enum UploadState: Hashable, Sendable {
    /// Nothing is uploading.
    case idle
    /// Upload `upload` is sending, with `progress` as a fraction 0…1.
    case uploading(upload: Int, progress: Double)
    /// Upload `upload` is paused at `progress`; resuming continues from it.
    case paused(upload: Int, progress: Double)
    /// The upload finished.
    case completed
    /// Upload `upload` failed: the `category` decides what a retry does, `message` says what happened
    /// and `sent` is the fraction the server had confirmed, where a retry after a network failure
    /// continues.
    case failed(upload: Int, category: UploadErrorCategory, message: String, sent: Double)

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

    /// Whether Retry applies: only a failed upload whose failure a retry can get past.
    public var canRetry: Bool {
        if case .failed(_, let category, _, _) = self { return category.isRetryable }
        return false
    }

    /// Whether Cancel applies: an upload in progress, paused or failed can be cancelled (back to idle).
    public var canCancel: Bool {
        switch self {
        case .uploading, .paused, .failed: true
        case .idle, .completed: false
        }
    }

    /// The number the next start or retry names as far as this state tells: one past its upload's (the
    /// upload owner, which keeps count across idle and completed, numbers the real ones).
    public var nextUpload: Int { (upload ?? 0) + 1 }

    /// The upload in flight or failed, nil when idle or completed.
    public var upload: Int? {
        switch self {
        case .uploading(let upload, _), .paused(let upload, _), .failed(let upload, _, _, _): upload
        case .idle, .completed: nil
        }
    }

    /// Pauses an upload in progress; does nothing in any other phase (seed 001's sample method).
    /// Use ``checkedPause()`` to learn why nothing happened.
    public mutating func pause() {
        guard case .uploading(let upload, let progress) = self else { return }
        self = .paused(upload: upload, progress: progress)
    }

    /// Resumes a paused upload; does nothing in any other phase (seed 001's sample method).
    /// Use ``checkedResume()`` to learn why nothing happened.
    public mutating func resume() {
        guard case .paused(let upload, let progress) = self else { return }
        self = .uploading(upload: upload, progress: progress)
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
    /// User actions (`start`, `pause`, `resume`, `retry`, `cancel`) that the phase does not allow are
    /// `.invalid` with the reason, which the throwing variants pass on (the screen asks first and sends
    /// only what applies). A start or retry must name a new upload. The task's reports (`progress`,
    /// `complete`, `fail`) apply only to the upload they name: one naming another upload is a late report
    /// of a task that was cancelled or replaced and is `.ignore`d, as are reports arriving when nothing
    /// uploads; progress while paused is ignored too. A completion or failure while paused is accepted:
    /// the task finished before the pause took effect (as in seed 000). Progress must stay within 0…1 and
    /// never go back.
    public static func transition(
        _ state: UploadState, _ event: UploadEvent
    ) -> Transition<UploadState, UploadEvent> {
        switch (state, event) {
        case (.idle, .start(let upload)), (.completed, .start(let upload)):
            return .to(.uploading(upload: upload, progress: 0))
        case (.failed(let failed, let category, let message, let sent), .retry(let upload)):
            guard category.isRetryable else {
                return .invalid("retry after \(category) failure (\(message)): retrying would fail the same way")
            }
            guard upload > failed else {
                return .invalid("retry must name a new upload: \(upload) is not after the failed upload \(failed)")
            }
            return .to(.uploading(upload: upload, progress: category == .network ? sent : 0))
        case (.uploading(let current, let old), .progress(let upload, let new)) where upload == current:
            guard new.isFinite, new >= 0, new <= 1 else { return .invalid("progress \(new) is outside 0…1") }
            guard new >= old else { return .invalid("progress went back from \(old) to \(new)") }
            return new == old ? .stay : .update(.uploading(upload: current, progress: new))
        case (.uploading(let upload, let progress), .pause):
            return .to(.paused(upload: upload, progress: progress))
        case (.paused(let upload, let progress), .resume):
            return .to(.uploading(upload: upload, progress: progress))
        case (.uploading(let current, _), .complete(let upload)) where upload == current,
            (.paused(let current, _), .complete(let upload)) where upload == current:
            return .to(.completed)
        case (.uploading(let current, let sent), .fail(let upload, let category, let message)) where upload == current,
            (.paused(let current, let sent), .fail(let upload, let category, let message)) where upload == current:
            return .to(.failed(upload: current, category: category, message: message, sent: sent))
        case (.uploading, .cancel), (.paused, .cancel), (.failed, .cancel):
            return .to(.idle)
        case (_, .progress), (_, .complete), (_, .fail):
            // Another upload's report, or one arriving while nothing of its upload runs: a late report.
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
        case (.idle, .cancel), (.completed, .cancel):
            return .invalid(
                "cancel while \(state.phaseName): only an upload in progress, paused or failed can be cancelled")
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
        CanonicalCase("uploading", .labelled("upload", "Int"), .labelled("progress", "Double")) {
            arguments throws(CanonicalTextError) in
            .uploading(upload: try arguments.int(0), progress: try arguments.double(1))
        },
        CanonicalCase("paused", .labelled("upload", "Int"), .labelled("progress", "Double")) {
            arguments throws(CanonicalTextError) in
            .paused(upload: try arguments.int(0), progress: try arguments.double(1))
        },
        CanonicalCase("completed", .completed),
        CanonicalCase(
            "failed", .labelled("upload", "Int"), .labelled("category", "UploadErrorCategory"),
            .labelled("message", "String"), .labelled("sent", "Double")
        ) { arguments throws(CanonicalTextError) in
            .failed(
                upload: try arguments.int(0), category: try arguments.value(1, as: UploadErrorCategory.self),
                message: try arguments.string(2), sent: try arguments.double(3))
        },
    ]

    /// The state as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .idle: Self.canonical("idle")
        case .uploading(let upload, let progress): Self.canonical("uploading", .int(upload), .double(progress))
        case .paused(let upload, let progress): Self.canonical("paused", .int(upload), .double(progress))
        case .completed: Self.canonical("completed")
        case .failed(let upload, let category, let message, let sent):
            Self.canonical("failed", .int(upload), category.canonicalValue, .string(message), .double(sent))
        }
    }
}

extension UploadState: MachineModel {
    /// A new machine starts idle.
    public static var initial: UploadState { .idle }
    /// Its machine's label unless told otherwise.
    public static let machineLabel = "upload"
}
