/// Work the transfer's effect driver performs after a transition is committed (seed 000:
/// "return a list of effect descriptions alongside the new state").
///
/// The driver runs the work and feeds completions back as ``TransferEvent``s tagged with the
/// request id, so callbacks of work it could not stop in time are recognised as stale.
public enum TransferEffect: Hashable, Sendable {
    /// Start underlying work for `request`, continuing from `percent` already transferred
    /// (0 for a fresh start, the paused percent on resume, the retained percent on retry).
    case begin(request: Int, percent: Int)
    /// Stop the underlying work of `request` for a logical pause; the request id lives on.
    case suspend(request: Int)
    /// Abandon `request` and release its resources; its id is never used again.
    case cancel(request: Int)
}

extension TransferEffect: CanonicalCases {
    /// What an error calls a transfer effect.
    public static let canonicalTypeName = "transfer effect"

    /// The forms a transfer effect is written in.
    public static let canonicalCases: [CanonicalCase<TransferEffect>] = [
        CanonicalCase("begin", .labelled("request", "Int"), .labelled("percent", "Int")) {
            arguments throws(CanonicalTextError) in
            .begin(request: try arguments.int(0), percent: try arguments.int(1))
        },
        CanonicalCase("suspend", .labelled("request", "Int")) { arguments throws(CanonicalTextError) in
            .suspend(request: try arguments.int(0))
        },
        CanonicalCase("cancel", .labelled("request", "Int")) { arguments throws(CanonicalTextError) in
            .cancel(request: try arguments.int(0))
        },
    ]

    /// The effect as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .begin(let request, let percent): Self.canonical("begin", .int(request), .int(percent))
        case .suspend(let request): Self.canonical("suspend", .int(request))
        case .cancel(let request): Self.canonical("cancel", .int(request))
        }
    }
}
