/// What can happen to a loading screen (seed 002's `Action`).
public enum LoadAction: Hashable, Sendable {
    /// The user pulled to refresh.
    case refreshTapped
    /// The load returned these items.
    case succeeded([String])
    /// The load failed with this message.
    case failed(String)
}

extension LoadAction: CanonicalText {
    /// The forms a load action is written in.
    public static let canonicalForms = ["refreshTapped", "succeeded([String])", "failed(String)"]

    /// The action as canonical text's syntax tree: `succeeded(["a", "b"])`, `failed("offline")`.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .refreshTapped: .name("refreshTapped")
        case .succeeded(let items): .call("succeeded", [.unlabelled(.strings(items))])
        case .failed(let message): .call("failed", [.unlabelled(.string(message))])
        }
    }

    /// Rebuilds a load action from canonical text's syntax tree.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        let forms = Self.canonicalForms
        switch value.caseName {
        case "refreshTapped":
            _ = try value.arguments(of: forms[0], labels: [])
            self = .refreshTapped
        case "succeeded":
            let arguments = try value.arguments(of: forms[1], labels: [nil])
            self = .succeeded(try arguments[0].stringsValue("items"))
        case "failed":
            let arguments = try value.arguments(of: forms[2], labels: [nil])
            self = .failed(try arguments[0].stringValue("message"))
        default:
            throw CanonicalValue.unknownCase(value, of: "load action")
        }
    }
}
