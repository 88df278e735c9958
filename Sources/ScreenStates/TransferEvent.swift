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

extension TransferEvent: CanonicalText {
    /// The forms a transfer event is written in.
    public static let canonicalForms = [
        "start", "progress(request: Int, percent: Int)", "pause", "resume",
        "succeeded(request: Int, file: String)", "failed(request: Int, message: String)", "cancel", "retry",
    ]

    /// The event as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .start: .name("start")
        case .progress(let request, let percent):
            .call("progress", [.labelled("request", .int(request)), .labelled("percent", .int(percent))])
        case .pause: .name("pause")
        case .resume: .name("resume")
        case .succeeded(let request, let file):
            .call("succeeded", [.labelled("request", .int(request)), .labelled("file", .string(file))])
        case .failed(let request, let message):
            .call("failed", [.labelled("request", .int(request)), .labelled("message", .string(message))])
        case .cancel: .name("cancel")
        case .retry: .name("retry")
        }
    }

    /// Rebuilds a transfer event from canonical text's syntax tree.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        let forms = Self.canonicalForms
        switch value.caseName {
        case "start":
            _ = try value.arguments(of: forms[0], labels: [])
            self = .start
        case "progress":
            let arguments = try value.arguments(of: forms[1], labels: ["request", "percent"])
            self = .progress(
                request: try arguments[0].intValue("request"), percent: try arguments[1].intValue("percent"))
        case "pause":
            _ = try value.arguments(of: forms[2], labels: [])
            self = .pause
        case "resume":
            _ = try value.arguments(of: forms[3], labels: [])
            self = .resume
        case "succeeded":
            let arguments = try value.arguments(of: forms[4], labels: ["request", "file"])
            self = .succeeded(
                request: try arguments[0].intValue("request"), file: try arguments[1].stringValue("file"))
        case "failed":
            let arguments = try value.arguments(of: forms[5], labels: ["request", "message"])
            self = .failed(
                request: try arguments[0].intValue("request"), message: try arguments[1].stringValue("message"))
        case "cancel":
            _ = try value.arguments(of: forms[6], labels: [])
            self = .cancel
        case "retry":
            _ = try value.arguments(of: forms[7], labels: [])
            self = .retry
        default:
            throw CanonicalValue.unknownCase(value, of: "transfer event")
        }
    }
}
