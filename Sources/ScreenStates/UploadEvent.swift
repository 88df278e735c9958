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

extension UploadEvent: CanonicalText {
    /// The forms an upload event is written in.
    public static let canonicalForms = [
        "start", "progress(Double)", "pause", "resume", "complete", "fail(message: String)", "retry", "cancel",
    ]

    /// The event as canonical text's syntax tree.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .start: .name("start")
        case .progress(let fraction): .call("progress", [.unlabelled(.double(fraction))])
        case .pause: .name("pause")
        case .resume: .name("resume")
        case .complete: .name("complete")
        case .fail(let message): .call("fail", [.labelled("message", .string(message))])
        case .retry: .name("retry")
        case .cancel: .name("cancel")
        }
    }

    /// Rebuilds an upload event from canonical text's syntax tree.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        let forms = Self.canonicalForms
        switch value.caseName {
        case "start":
            _ = try value.arguments(of: forms[0], labels: [])
            self = .start
        case "progress":
            let arguments = try value.arguments(of: forms[1], labels: [nil])
            self = .progress(try arguments[0].doubleValue("progress"))
        case "pause":
            _ = try value.arguments(of: forms[2], labels: [])
            self = .pause
        case "resume":
            _ = try value.arguments(of: forms[3], labels: [])
            self = .resume
        case "complete":
            _ = try value.arguments(of: forms[4], labels: [])
            self = .complete
        case "fail":
            let arguments = try value.arguments(of: forms[5], labels: ["message"])
            self = .fail(message: try arguments[0].stringValue("message"))
        case "retry":
            _ = try value.arguments(of: forms[6], labels: [])
            self = .retry
        case "cancel":
            _ = try value.arguments(of: forms[7], labels: [])
            self = .cancel
        default:
            throw CanonicalValue.unknownCase(value, of: "upload event")
        }
    }
}
