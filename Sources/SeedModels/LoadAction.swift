/// What can happen to a loading screen (seed 002's `Action`).
public enum LoadAction: Hashable, Sendable {
    /// The user pulled to refresh.
    case refreshTapped
    /// The load returned these items.
    case succeeded([String])
    /// The load failed with this message.
    case failed(String)
}

extension LoadAction: CanonicalCases {
    /// What an error calls a load action.
    public static let canonicalTypeName = "load action"

    /// The forms a load action is written in.
    public static let canonicalCases: [CanonicalCase<LoadAction>] = [
        CanonicalCase("refreshTapped", .refreshTapped),
        CanonicalCase("succeeded", .unlabelled("items", "[String]")) { arguments throws(CanonicalTextError) in
            .succeeded(try arguments.strings(0))
        },
        CanonicalCase("failed", .unlabelled("message", "String")) { arguments throws(CanonicalTextError) in
            .failed(try arguments.string(0))
        },
    ]

    /// The action as canonical text's syntax tree: `succeeded(["a", "b"])`, `failed("offline")`.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .refreshTapped: Self.canonical("refreshTapped")
        case .succeeded(let items): Self.canonical("succeeded", .strings(items))
        case .failed(let message): Self.canonical("failed", .string(message))
        }
    }
}
