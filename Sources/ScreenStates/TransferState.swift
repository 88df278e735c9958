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

extension TransferState: CanonicalText {
    /// The forms a transfer state is written in.
    public static let canonicalForms = [
        "idle", "running(request: Int, percent: Int)", "paused(request: Int, percent: Int)",
        "completed(file: String)", "failed(message: String)",
    ]

    /// The state as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .idle:
            .name("idle")
        case .running(let request, let percent):
            .call("running", [.labelled("request", .int(request)), .labelled("percent", .int(percent))])
        case .paused(let request, let percent):
            .call("paused", [.labelled("request", .int(request)), .labelled("percent", .int(percent))])
        case .completed(let file):
            .call("completed", [.labelled("file", .string(file))])
        case .failed(let message):
            .call("failed", [.labelled("message", .string(message))])
        }
    }

    /// Rebuilds a transfer state from canonical text's syntax tree.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        let forms = Self.canonicalForms
        switch value.caseName {
        case "idle":
            _ = try value.arguments(of: forms[0], labels: [])
            self = .idle
        case "running":
            let arguments = try value.arguments(of: forms[1], labels: ["request", "percent"])
            self = .running(
                request: try arguments[0].intValue("request"), percent: try arguments[1].intValue("percent"))
        case "paused":
            let arguments = try value.arguments(of: forms[2], labels: ["request", "percent"])
            self = .paused(
                request: try arguments[0].intValue("request"), percent: try arguments[1].intValue("percent"))
        case "completed":
            let arguments = try value.arguments(of: forms[3], labels: ["file"])
            self = .completed(file: try arguments[0].stringValue("file"))
        case "failed":
            let arguments = try value.arguments(of: forms[4], labels: ["message"])
            self = .failed(message: try arguments[0].stringValue("message"))
        default:
            throw CanonicalValue.unknownCase(value, of: "transfer state")
        }
    }
}
