/// How `statetui` with no command runs the dashboard: `statetui [--trace FILE] [--seed N] [--no-mouse]
/// [--inspectable]`.
package struct DashboardOptions: Hashable, Sendable {
    /// Where per-frame timings are logged (`--trace FILE`), if anywhere.
    package var tracePath: String?
    /// The simulated transfers' random seed (`--seed N`); when nil, `STATE_MACHINE_SEED` or a fresh one.
    package var seed: UInt64?
    /// Whether the terminal reports clicks and the wheel (off with `--no-mouse`, which leaves the mouse to
    /// the terminal, for selecting text).
    package var mouse: Bool
    /// Whether `statetui inspect` may follow the dashboard's machines (`--inspectable`).
    package var inspectable: Bool

    /// Options.
    package init(tracePath: String? = nil, seed: UInt64? = nil, mouse: Bool = true, inspectable: Bool = false) {
        self.tracePath = tracePath
        self.seed = seed
        self.mouse = mouse
        self.inspectable = inspectable
    }

    /// The usage line.
    package static let usage = "statetui [--trace <file>] [--seed <n>] [--no-mouse] [--inspectable]"

    /// Parses the words after the program name when they open the dashboard: none at all, or only
    /// dashboard options. Returns nil when the first word is something else (a command, `--help`).
    package static func parse(_ arguments: [String]) throws(UsageError) -> DashboardOptions? {
        guard let first = arguments.first else { return DashboardOptions() }
        guard first == "--trace" || first == "--seed" || first == "--no-mouse" || first == "--inspectable" else {
            return nil
        }
        var options = DashboardOptions()
        var rest = arguments[...]
        while let option = rest.popFirst() {
            switch option {
            case "--trace":
                guard let path = rest.popFirst(), !path.isEmpty else {
                    throw UsageError("option '--trace' needs a file")
                }
                options.tracePath = path
            case "--seed":
                guard let text = rest.popFirst() else { throw UsageError("option '--seed' needs a number") }
                guard let seed = Self.parseSeed(text) else {
                    throw UsageError(
                        "option '--seed' needs an unsigned 64-bit integer (decimal or 0x-hexadecimal), got '\(text)'")
                }
                options.seed = seed
            case "--no-mouse":
                options.mouse = false
            case "--inspectable":
                options.inspectable = true
            default:  // not a state switch: any other word is a usage error
                throw UsageError("unexpected argument '\(option)'")
            }
        }
        return options
    }

    /// The environment variable that seeds random choices when `--seed` is not given (shared with model
    /// checks, so one variable repeats a run).
    package static let seedVariable = "STATE_MACHINE_SEED"

    /// The seed to run with: `--seed`, else `STATE_MACHINE_SEED`, else nil (the caller draws one). A
    /// variable that is set but not a number is a usage error naming it.
    package func resolvedSeed(environment: [String: String]) throws(UsageError) -> UInt64? {
        if let seed { return seed }
        guard let text = environment[Self.seedVariable], !text.isEmpty else { return nil }
        guard let seed = Self.parseSeed(text) else {
            throw UsageError(
                "\(Self.seedVariable)=\"\(text)\" is not an unsigned 64-bit integer (decimal or 0x-hexadecimal)")
        }
        return seed
    }

    /// A decimal or `0x`-prefixed hexadecimal `UInt64`.
    static func parseSeed(_ text: String) -> UInt64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }
}
