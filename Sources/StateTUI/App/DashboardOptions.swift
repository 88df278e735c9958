/// How `statetui` with no command runs the dashboard: `statetui [--trace FILE] [--seed N]`.
public struct DashboardOptions: Hashable, Sendable {
    /// Where per-frame timings are logged (`--trace FILE`), if anywhere.
    public var tracePath: String?
    /// The simulated transfers' random seed (`--seed N`); a fresh one per run when nil.
    public var seed: UInt64?

    /// Options.
    public init(tracePath: String? = nil, seed: UInt64? = nil) {
        self.tracePath = tracePath
        self.seed = seed
    }

    /// The usage line.
    public static let usage = "statetui [--trace <file>] [--seed <n>]"

    /// Parses the words after the program name when they open the dashboard: none at all, or only
    /// dashboard options. Returns nil when the first word is something else (a command, `--help`).
    public static func parse(_ arguments: [String]) throws(UsageError) -> DashboardOptions? {
        guard let first = arguments.first else { return DashboardOptions() }
        guard first == "--trace" || first == "--seed" else { return nil }
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
                guard let seed = UInt64(text) else {
                    throw UsageError("option '--seed' needs a whole number from 0 to \(UInt64.max), got '\(text)'")
                }
                options.seed = seed
            default:  // not a state switch: any other word is a usage error
                throw UsageError("unexpected argument '\(option)'")
            }
        }
        return options
    }
}
