/// What can happen to an upload: the complete lifecycle seed 001 asks to test.
public enum UploadEvent: Hashable, Sendable {
    /// The user starts an upload (from idle, or another one after completion).
    case start
    /// The task reports `fraction` uploaded (0…1).
    case progress(Double)
    /// The user pauses the upload in progress.
    case pause
    /// The user resumes the paused upload.
    case resume
    /// The task finished.
    case complete
    /// The task failed with `message`.
    case fail(message: String)
    /// The user retries after a failure.
    case retry
    /// The user cancels the upload in progress or paused.
    case cancel
}

extension UploadEvent: CanonicalCases {
    /// What an error calls an upload event.
    public static let canonicalTypeName = "upload event"

    /// The forms an upload event is written in.
    public static let canonicalCases: [CanonicalCase<UploadEvent>] = [
        CanonicalCase("start", .start),
        CanonicalCase("progress", .unlabelled("progress", "Double")) { arguments throws(CanonicalTextError) in
            .progress(try arguments.double(0))
        },
        CanonicalCase("pause", .pause),
        CanonicalCase("resume", .resume),
        CanonicalCase("complete", .complete),
        CanonicalCase("fail", .labelled("message", "String")) { arguments throws(CanonicalTextError) in
            .fail(message: try arguments.string(0))
        },
        CanonicalCase("retry", .retry),
        CanonicalCase("cancel", .cancel),
    ]

    /// The event as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .start: Self.canonical("start")
        case .progress(let fraction): Self.canonical("progress", .double(fraction))
        case .pause: Self.canonical("pause")
        case .resume: Self.canonical("resume")
        case .complete: Self.canonical("complete")
        case .fail(let message): Self.canonical("fail", .string(message))
        case .retry: Self.canonical("retry")
        case .cancel: Self.canonical("cancel")
        }
    }
}
