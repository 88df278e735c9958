import SeedModels
import StateMachineMacros

/// Seed 001's upload (``UploadState/transition(_:_:)``) rewritten as a `@StateMachine` table.
///
/// It lives in its own target, not in SeedModels: the macro's plugin links the toolchain's SwiftSyntax
/// with unsafe flags, and a target that depends on it (SeedModels included, if it did) could no longer be
/// depended on by other packages. Tests hold the generated function to the hand-written one: the same
/// decision for every pair, the same `StateGraph` and the same `statetui replay` output.
@StateMachine
public enum UploadTable {
    /// The states are the seed model's.
    public typealias State = UploadState
    /// The events are the seed model's.
    public typealias Event = UploadEvent

    /// ``UploadState``'s cases; the generated `stateCase(_:)` switch keeps this list exact.
    public enum StateCase: String, Hashable, Sendable, CaseIterable {
        case idle, uploading, paused, completed, failed
    }

    /// ``UploadEvent``'s cases; the generated `eventCase(_:)` switch keeps this list exact.
    public enum EventCase: String, Hashable, Sendable, CaseIterable {
        case start, progress, pause, resume, complete, fail, retry, cancel
    }

    /// One row per (state, event) pair, grouped by state, with the hand-written function's reasons. A task's
    /// report applies only through the guarded row of its own upload; the unguarded row after it ignores
    /// another upload's.
    public static let table = Table(
        initial: .idle,
        rows: [
            .on(.idle, .start) { _, event in
                guard case .start(let upload) = event else { return .invalid("start row applied to \(event)") }
                return .to(.uploading(upload: upload, progress: 0))
            },
            .on(.idle, .progress, .ignore),
            .on(.idle, .pause, .invalid("pause while idle: only an upload in progress can pause")),
            .on(.idle, .resume, .invalid("resume while idle: only a paused upload can resume")),
            .on(.idle, .complete, .ignore),
            .on(.idle, .fail, .ignore),
            .on(.idle, .retry, .invalid("retry while idle: only a failed upload can be retried")),
            .on(
                .idle, .cancel,
                .invalid("cancel while idle: only an upload in progress, paused or failed can be cancelled")),

            .on(.uploading, .start, .invalid("start while uploading: an upload is already in progress")),
            .on(.uploading, .progress, when: sameUpload) { state, event in
                guard case .uploading(let upload, let old) = state, case .progress(_, let new) = event else {
                    return .invalid("progress row applied to \(state) and \(event)")
                }
                guard new.isFinite, new >= 0, new <= 1 else { return .invalid("progress \(new) is outside 0…1") }
                guard new >= old else { return .invalid("progress went back from \(old) to \(new)") }
                return new == old ? .stay : .update(.uploading(upload: upload, progress: new))
            },
            .on(.uploading, .progress, .ignore),
            .on(.uploading, .pause) { state, _ in
                guard case .uploading(let upload, let progress) = state else {
                    return .invalid("pause row applied to \(state)")
                }
                return .to(.paused(upload: upload, progress: progress))
            },
            .on(.uploading, .resume, .invalid("resume while uploading: only a paused upload can resume")),
            .on(.uploading, .complete, when: sameUpload, to: .completed),
            .on(.uploading, .complete, .ignore),
            .on(.uploading, .fail, when: sameUpload) { state, event in
                guard case .uploading(let upload, let sent) = state, case .fail(_, let category, let message) = event
                else { return .invalid("fail row applied to \(state) and \(event)") }
                return .to(.failed(upload: upload, category: category, message: message, sent: sent))
            },
            .on(.uploading, .fail, .ignore),
            .on(.uploading, .retry, .invalid("retry while uploading: only a failed upload can be retried")),
            .on(.uploading, .cancel, to: .idle),

            .on(.paused, .start, .invalid("start while paused: an upload is already in progress")),
            .on(.paused, .progress, .ignore),
            .on(.paused, .pause, .invalid("pause while paused: only an upload in progress can pause")),
            .on(.paused, .resume) { state, _ in
                guard case .paused(let upload, let progress) = state else {
                    return .invalid("resume row applied to \(state)")
                }
                return .to(.uploading(upload: upload, progress: progress))
            },
            .on(.paused, .complete, when: sameUpload, to: .completed),
            .on(.paused, .complete, .ignore),
            .on(.paused, .fail, when: sameUpload) { state, event in
                guard case .paused(let upload, let sent) = state, case .fail(_, let category, let message) = event
                else { return .invalid("fail row applied to \(state) and \(event)") }
                return .to(.failed(upload: upload, category: category, message: message, sent: sent))
            },
            .on(.paused, .fail, .ignore),
            .on(.paused, .retry, .invalid("retry while paused: only a failed upload can be retried")),
            .on(.paused, .cancel, to: .idle),

            .on(.completed, .start) { _, event in
                guard case .start(let upload) = event else { return .invalid("start row applied to \(event)") }
                return .to(.uploading(upload: upload, progress: 0))
            },
            .on(.completed, .progress, .ignore),
            .on(.completed, .pause, .invalid("pause while completed: only an upload in progress can pause")),
            .on(.completed, .resume, .invalid("resume while completed: only a paused upload can resume")),
            .on(.completed, .complete, .ignore),
            .on(.completed, .fail, .ignore),
            .on(.completed, .retry, .invalid("retry while completed: only a failed upload can be retried")),
            .on(
                .completed, .cancel,
                .invalid("cancel while completed: only an upload in progress, paused or failed can be cancelled")),

            .on(.failed, .start, .invalid("start after a failure: retry the failed upload or cancel it first")),
            .on(.failed, .progress, .ignore),
            .on(.failed, .pause, .invalid("pause while failed: only an upload in progress can pause")),
            .on(.failed, .resume, .invalid("resume while failed: only a paused upload can resume")),
            .on(.failed, .complete, .ignore),
            .on(.failed, .fail, .ignore),
            .on(.failed, .retry) { state, event in
                guard case .failed(let failed, let category, let message, let sent) = state,
                    case .retry(let upload) = event
                else { return .invalid("retry row applied to \(state) and \(event)") }
                guard category.isRetryable else {
                    return .invalid("retry after \(category) failure (\(message)): retrying would fail the same way")
                }
                guard upload > failed else {
                    return .invalid("retry must name a new upload: \(upload) is not after the failed upload \(failed)")
                }
                return .to(.uploading(upload: upload, progress: category == .network ? sent : 0))
            },
            .on(.failed, .cancel, to: .idle),
        ])

    /// Whether a task's report names the upload in flight.
    static func sameUpload(_ state: UploadState, _ event: UploadEvent) -> Bool {
        switch event {
        case .progress(let upload, _), .complete(let upload), .fail(let upload, _, _): upload == state.upload
        case .start, .pause, .resume, .retry, .cancel: false
        }
    }
}
