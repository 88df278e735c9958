/// Seed 002's counter-example: a screen modelled as a bag of independent flags. Its 2 × 2 × 2 = 8
/// combinations include screens that cannot exist; ``combinations(items:error:)`` lists them all
/// and ``reading`` names what each one would have to be showing.
public struct FlagsState: Hashable, Sendable {
    /// Whether the spinner shows.
    public var isLoading = false
    /// The items shown, if any.
    public var items: [String]? = nil
    /// The error shown, if any.
    public var error: String? = nil

    /// A bag of flags; all off by default, as in the seed.
    public init(isLoading: Bool = false, items: [String]? = nil, error: String? = nil) {
        self.isLoading = isLoading
        self.items = items
        self.error = error
    }

    /// The flags a real screen sets for `state`.
    public init(_ state: LoadState) {
        switch state {
        case .idle: self.init()
        case .loading(let previous): self.init(isLoading: true, items: previous)
        case .loaded(let items): self.init(items: items)
        case .failed(let message, let previous): self.init(items: previous, error: message)
        }
    }

    /// All 8 combinations, in a fixed order (isLoading, then items, then error; off before on),
    /// using `items` and `error` as the sample values.
    public static func combinations(items: [String] = ["a", "b"], error: String = "offline") -> [FlagsState] {
        var all: [FlagsState] = []
        for isLoading in [false, true] {
            for shownItems in [nil, items] {
                for shownError in [nil, error] {
                    all.append(FlagsState(isLoading: isLoading, items: shownItems, error: shownError))
                }
            }
        }
        return all
    }

    /// What a combination can mean as a screen.
    public enum Reading: Hashable, Sendable {
        /// Exactly one real screen looks like this.
        case screen(LoadState)
        /// A real screen looks like this, but so does a nonsense one the flags cannot rule out.
        case ambiguous(LoadState, String)
        /// No real screen looks like this; the string names the contradiction.
        case impossible(String)
    }

    /// What this combination would be showing.
    ///
    /// Loading together with an error is impossible: a refresh in flight has no outcome yet. Items
    /// with an error and no spinner is a failure keeping the previous items, but the flags equally
    /// describe loaded items with a stale error still showing; only the enum tells them apart.
    public var reading: Reading {
        switch (isLoading, items, error) {
        case (false, nil, nil):
            .screen(.idle)
        case (true, let items, nil):
            .screen(.loading(previous: items))
        case (false, let items?, nil):
            .screen(.loaded(items))
        case (false, nil, let error?):
            .screen(.failed(error, previous: nil))
        case (false, let items?, let error?):
            .ambiguous(
                .failed(error, previous: items),
                "loaded items with an error still showing, or a failure keeping the previous items")
        case (true, nil, _?):
            .impossible("loading together with an error")
        case (true, _?, _?):
            .impossible("loading together with an error, over the previous items")
        }
    }

    /// Whether no real screen looks like this combination.
    public var isImpossible: Bool {
        if case .impossible = reading { return true }
        return false
    }
}

extension FlagsState: CustomStringConvertible {
    /// Swift-literal form: `FlagsState(isLoading: true, items: nil, error: "offline")`.
    public var description: String {
        CanonicalValue.call(
            "FlagsState",
            [
                .labelled("isLoading", .name(isLoading ? "true" : "false")),
                .labelled("items", .optionalStrings(items)),
                .labelled("error", error.map { .string($0) } ?? .nil),
            ]
        ).description
    }
}
