/// What can happen to an upload: the complete lifecycle seed 001 asks to test.
///
/// A start and a retry name the upload they begin (the upload owner numbers them); the task's reports
/// name the upload they belong to, so one from an earlier task is told apart from the current one's.
public enum UploadEvent: Hashable, Sendable {
    /// The user starts upload `upload` (from idle, or another one after completion).
    case start(upload: Int)
    /// Upload `upload`'s task reports `fraction` uploaded (0…1).
    case progress(upload: Int, fraction: Double)
    /// The user pauses the upload in progress.
    case pause
    /// The user resumes the paused upload.
    case resume
    /// Upload `upload`'s task finished.
    case complete(upload: Int)
    /// Upload `upload`'s task failed: what kind of failure, and what happened.
    case fail(upload: Int, category: UploadErrorCategory, message: String)
    /// The user retries the failed upload as upload `upload`.
    case retry(upload: Int)
    /// The user cancels the upload in progress, paused or failed.
    case cancel

    /// Whether it begins an upload: a start or a retry.
    public var beginsUpload: Bool {
        switch self {
        case .start, .retry: true
        case .progress, .pause, .resume, .complete, .fail, .cancel: false
        }
    }

    /// The same event beginning upload `upload` instead, for a start or a retry; any other event as it is.
    public func beginning(_ upload: Int) -> UploadEvent {
        switch self {
        case .start: .start(upload: upload)
        case .retry: .retry(upload: upload)
        case .progress, .pause, .resume, .complete, .fail, .cancel: self
        }
    }
}

extension UploadEvent: CanonicalCases {
    /// What an error calls an upload event.
    public static let canonicalTypeName = "upload event"

    /// The forms an upload event is written in.
    public static let canonicalCases: [CanonicalCase<UploadEvent>] = [
        CanonicalCase("start", .labelled("upload", "Int")) { arguments throws(CanonicalTextError) in
            .start(upload: try arguments.int(0))
        },
        CanonicalCase("progress", .labelled("upload", "Int"), .labelled("fraction", "Double")) {
            arguments throws(CanonicalTextError) in
            .progress(upload: try arguments.int(0), fraction: try arguments.double(1))
        },
        CanonicalCase("pause", .pause),
        CanonicalCase("resume", .resume),
        CanonicalCase("complete", .labelled("upload", "Int")) { arguments throws(CanonicalTextError) in
            .complete(upload: try arguments.int(0))
        },
        CanonicalCase(
            "fail", .labelled("upload", "Int"), .labelled("category", "UploadErrorCategory"),
            .labelled("message", "String")
        ) { arguments throws(CanonicalTextError) in
            .fail(
                upload: try arguments.int(0), category: try arguments.value(1, as: UploadErrorCategory.self),
                message: try arguments.string(2))
        },
        CanonicalCase("retry", .labelled("upload", "Int")) { arguments throws(CanonicalTextError) in
            .retry(upload: try arguments.int(0))
        },
        CanonicalCase("cancel", .cancel),
    ]

    /// The event as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .start(let upload): Self.canonical("start", .int(upload))
        case .progress(let upload, let fraction): Self.canonical("progress", .int(upload), .double(fraction))
        case .pause: Self.canonical("pause")
        case .resume: Self.canonical("resume")
        case .complete(let upload): Self.canonical("complete", .int(upload))
        case .fail(let upload, let category, let message):
            Self.canonical("fail", .int(upload), category.canonicalValue, .string(message))
        case .retry(let upload): Self.canonical("retry", .int(upload))
        case .cancel: Self.canonical("cancel")
        }
    }
}
