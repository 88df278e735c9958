/// The phase of a transfer (seed 000): each case carries exactly the facts that exist in it, so a
/// settled transfer cannot accidentally keep an active request id.
public enum TransferState: Hashable, Sendable {
    /// Nothing is transferring.
    case idle
    /// Request `request` is transferring and has reported `percent` (0…100).
    case running(request: Int, percent: Int)
    /// Request `request` is logically paused at `percent`; resuming keeps the same request id.
    case paused(request: Int, percent: Int)
    /// The transfer produced `file` (never empty).
    case completed(file: String)
    /// The transfer failed with `message`.
    case failed(message: String)

    /// The request in flight (running or paused), nil in settled and idle phases.
    public var activeRequest: Int? {
        switch self {
        case .running(let request, _), .paused(let request, _): request
        case .idle, .completed, .failed: nil
        }
    }

    /// The percent reported so far by the active request, nil when none is active.
    public var percent: Int? {
        switch self {
        case .running(_, let percent), .paused(_, let percent): percent
        case .idle, .completed, .failed: nil
        }
    }
}

extension TransferState: CanonicalCases {
    /// What an error calls a transfer state.
    public static let canonicalTypeName = "transfer state"

    /// The forms a transfer state is written in.
    public static let canonicalCases: [CanonicalCase<TransferState>] = [
        CanonicalCase("idle", .idle),
        CanonicalCase("running", .labelled("request", "Int"), .labelled("percent", "Int")) {
            arguments throws(CanonicalTextError) in
            .running(request: try arguments.int(0), percent: try arguments.int(1))
        },
        CanonicalCase("paused", .labelled("request", "Int"), .labelled("percent", "Int")) {
            arguments throws(CanonicalTextError) in
            .paused(request: try arguments.int(0), percent: try arguments.int(1))
        },
        CanonicalCase("completed", .labelled("file", "String")) { arguments throws(CanonicalTextError) in
            .completed(file: try arguments.string(0))
        },
        CanonicalCase("failed", .labelled("message", "String")) { arguments throws(CanonicalTextError) in
            .failed(message: try arguments.string(0))
        },
    ]

    /// The state as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .idle: Self.canonical("idle")
        case .running(let request, let percent): Self.canonical("running", .int(request), .int(percent))
        case .paused(let request, let percent): Self.canonical("paused", .int(request), .int(percent))
        case .completed(let file): Self.canonical("completed", .string(file))
        case .failed(let message): Self.canonical("failed", .string(message))
        }
    }
}
