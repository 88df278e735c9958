/// What can happen to a transfer (seed 000): user actions (`start`, `pause`, `resume`, `cancel`,
/// `retry`) and outcomes reported by the effect driver for a request id.
public enum TransferEvent: Hashable, Sendable {
    /// The user starts a new transfer; it gets a fresh request id.
    case start
    /// Request `request` reports `percent`.
    case progress(request: Int, percent: Int)
    /// The user pauses the running transfer (the same request id resumes later).
    case pause
    /// The user resumes the paused transfer.
    case resume
    /// Request `request` finished and produced `file`.
    case succeeded(request: Int, file: String)
    /// Request `request` failed with `message`.
    case failed(request: Int, message: String)
    /// The user cancels the transfer in flight; its id is never reused.
    case cancel
    /// The user retries a failed transfer: a new request id that resumes from the content the
    /// failed request had already transferred (seed 000's exercise; see ``TransferModel``).
    case retry

    /// The request id an outcome event names, nil for user actions.
    public var request: Int? {
        switch self {
        case .progress(let request, _), .succeeded(let request, _), .failed(let request, _): request
        case .start, .pause, .resume, .cancel, .retry: nil
        }
    }
}

extension TransferEvent: CanonicalCases {
    /// What an error calls a transfer event.
    public static let canonicalTypeName = "transfer event"

    /// The forms a transfer event is written in.
    public static let canonicalCases: [CanonicalCase<TransferEvent>] = [
        CanonicalCase("start", .start),
        CanonicalCase("progress", .labelled("request", "Int"), .labelled("percent", "Int")) {
            arguments throws(CanonicalTextError) in
            .progress(request: try arguments.int(0), percent: try arguments.int(1))
        },
        CanonicalCase("pause", .pause),
        CanonicalCase("resume", .resume),
        CanonicalCase("succeeded", .labelled("request", "Int"), .labelled("file", "String")) {
            arguments throws(CanonicalTextError) in
            .succeeded(request: try arguments.int(0), file: try arguments.string(1))
        },
        CanonicalCase("failed", .labelled("request", "Int"), .labelled("message", "String")) {
            arguments throws(CanonicalTextError) in
            .failed(request: try arguments.int(0), message: try arguments.string(1))
        },
        CanonicalCase("cancel", .cancel),
        CanonicalCase("retry", .retry),
    ]

    /// The event as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .start: Self.canonical("start")
        case .progress(let request, let percent): Self.canonical("progress", .int(request), .int(percent))
        case .pause: Self.canonical("pause")
        case .resume: Self.canonical("resume")
        case .succeeded(let request, let file): Self.canonical("succeeded", .int(request), .string(file))
        case .failed(let request, let message): Self.canonical("failed", .int(request), .string(message))
        case .cancel: Self.canonical("cancel")
        case .retry: Self.canonical("retry")
        }
    }
}
