import StateMachineKit

/// What a loading screen can really be showing (seed 002): four cases, no impossible pairs, and
/// the previous items carried where the screen keeps them visible.
public enum LoadState: Hashable, Sendable {
    /// Nothing loaded yet, nothing loading.
    case idle
    /// Loading, with the items shown before the refresh (nil on a first load) kept under a spinner.
    case loading(previous: [String]?)
    /// The items loaded.
    case loaded([String])
    /// The load failed with a message; the previous items stay for a retry banner.
    case failed(String, previous: [String]?)

    /// Seed 002's reducer, exactly its table: a tap while loading is a no-op, a failure keeps the
    /// previous items, and anything else (a late success after a failure, …) leaves the state.
    public static func reduce(_ state: LoadState, _ action: LoadAction) -> LoadState {
        switch (state, action) {
        case (.loading, .refreshTapped): return state
        case (.idle, .refreshTapped): return .loading(previous: nil)
        case (.loaded(let items), .refreshTapped): return .loading(previous: items)
        case (.failed(_, let previous), .refreshTapped): return .loading(previous: previous)
        case (.loading, .succeeded(let items)): return .loaded(items)
        case (.loading(let previous), .failed(let message)): return .failed(message, previous: previous)
        case (.idle, .succeeded), (.loaded, .succeeded), (.failed, .succeeded),
            (.idle, .failed), (.loaded, .failed), (.failed, .failed):
            return state
        }
    }

    /// The same table as a transition for the engine. A tap while loading is `.stay` (accepted:
    /// the load in flight answers it); a result with no load in flight (a late success after a
    /// failure, …) is `.ignore`. Every other row is a new visit. Its target always equals
    /// ``reduce(_:_:)``.
    public static func transition(
        _ state: LoadState, _ action: LoadAction
    ) -> Transition<LoadState, LoadAction> {
        switch (state, action) {
        case (.loading, .refreshTapped):
            return .stay
        case (.idle, .refreshTapped), (.loaded, .refreshTapped), (.failed, .refreshTapped),
            (.loading, .succeeded), (.loading, .failed):
            return .to(reduce(state, action))
        case (.idle, .succeeded), (.loaded, .succeeded), (.failed, .succeeded),
            (.idle, .failed), (.loaded, .failed), (.failed, .failed):
            return .ignore
        }
    }
}

/// Seed 002's reducer as a free function, exactly as the seed writes it.
public func reduce(_ state: LoadState, _ action: LoadAction) -> LoadState {
    LoadState.reduce(state, action)
}

extension LoadState: CanonicalCases {
    /// What an error calls a load state.
    public static let canonicalTypeName = "load state"

    /// The forms a load state is written in.
    public static let canonicalCases: [CanonicalCase<LoadState>] = [
        CanonicalCase("idle", .idle),
        CanonicalCase("loading", .labelled("previous", "[String]?")) { arguments throws(CanonicalTextError) in
            .loading(previous: try arguments.optionalStrings(0))
        },
        CanonicalCase("loaded", .unlabelled("items", "[String]")) { arguments throws(CanonicalTextError) in
            .loaded(try arguments.strings(0))
        },
        CanonicalCase("failed", .unlabelled("message", "String"), .labelled("previous", "[String]?")) {
            arguments throws(CanonicalTextError) in
            .failed(try arguments.string(0), previous: try arguments.optionalStrings(1))
        },
    ]

    /// The state as canonical text's syntax tree: `loading(previous: nil)`, `loaded(["a", "b"])`.
    public var canonicalValue: CanonicalValue {
        switch self {
        case .idle: Self.canonical("idle")
        case .loading(let previous): Self.canonical("loading", .optionalStrings(previous))
        case .loaded(let items): Self.canonical("loaded", .strings(items))
        case .failed(let message, let previous): Self.canonical("failed", .string(message), .optionalStrings(previous))
        }
    }
}

extension LoadState: MachineModel {
    /// A new machine starts idle.
    public static var initial: LoadState { .idle }
    /// Its machine's label unless told otherwise.
    public static let machineLabel = "load"
}
