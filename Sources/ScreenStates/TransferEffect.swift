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

extension TransferEffect: CanonicalText {
    /// The forms a transfer effect is written in.
    public static let canonicalForms = [
        "begin(request: Int, percent: Int)", "suspend(request: Int)", "cancel(request: Int)",
    ]

    /// The effect as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .begin(let request, let percent):
            .call("begin", [.labelled("request", .int(request)), .labelled("percent", .int(percent))])
        case .suspend(let request):
            .call("suspend", [.labelled("request", .int(request))])
        case .cancel(let request):
            .call("cancel", [.labelled("request", .int(request))])
        }
    }

    /// Rebuilds an effect from canonical text's syntax tree.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        let forms = Self.canonicalForms
        switch value.caseName {
        case "begin":
            let arguments = try value.arguments(of: forms[0], labels: ["request", "percent"])
            self = .begin(
                request: try arguments[0].intValue("request"), percent: try arguments[1].intValue("percent"))
        case "suspend":
            let arguments = try value.arguments(of: forms[1], labels: ["request"])
            self = .suspend(request: try arguments[0].intValue("request"))
        case "cancel":
            let arguments = try value.arguments(of: forms[2], labels: ["request"])
            self = .cancel(request: try arguments[0].intValue("request"))
        default:
            throw CanonicalValue.unknownCase(value, of: "transfer effect")
        }
    }
}
