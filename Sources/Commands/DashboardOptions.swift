import DashboardApp
import TerminalUI

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
    /// The configuration file named by `--config FILE`, if any (else the usual one, ``ConfigFile``).
    package var configPath: String?
    /// The configuration read from it (the command line reads it before the dashboard opens).
    package var config = DashboardConfig()

    /// Whether `-h` or `--help` came among the options: the help is printed instead of opening the dashboard.
    package var wantsHelp = false
    /// Whether `-V` or `--version` came among the options (and no help before it): the version is printed.
    package var wantsVersion = false

    package init(tracePath: String? = nil, seed: UInt64? = nil, mouse: Bool = true, inspectable: Bool = false) {
        self.tracePath = tracePath
        self.seed = seed
        self.mouse = mouse
        self.inspectable = inspectable
    }

    /// The options of the dashboard, each named once: parsing, the opening check and the usage line read
    /// this one list.
    package enum Option: String, CaseIterable, Sendable {
        /// `--trace FILE`: log per-frame timings to FILE.
        case trace = "--trace"
        /// `--seed N`: seed the simulated transfers.
        case seed = "--seed"
        /// `--no-mouse`: leave the mouse to the terminal.
        case noMouse = "--no-mouse"
        /// `--inspectable`: let `statetui inspect` follow the machines.
        case inspectable = "--inspectable"
        /// `--config FILE`: read the configuration from FILE.
        case config = "--config"

        /// The name of the value the option takes, or nil for a flag.
        package var valueName: String? {
            switch self {
            case .trace: "file"
            case .seed: "n"
            case .config: "file"
            case .noMouse, .inspectable: nil
            }
        }

        /// One line of help, as `statetui --help` lists it.
        package var help: String {
            switch self {
            case .trace: "Dashboard: log each frame's timings to <file>."
            case .seed: "Dashboard: seed the simulated transfers."
            case .noMouse: "Dashboard: leave the mouse to the terminal (no clicks, no wheel)."
            case .inspectable: "Dashboard: let 'statetui inspect' follow its machines."
            case .config: "Dashboard: read the configuration from <file> ('statetui help config')."
            }
        }

        /// What a shell completes for its value (nil: a flag, it takes none).
        package var completion: CommandSpec.ValueCompletion? {
            switch self {
            case .trace, .config: .files
            case .seed: CommandSpec.ValueCompletion.none
            case .noMouse, .inspectable: nil
            }
        }

        /// `[--trace <file>]`, `[--no-mouse]`: the option as the usage line shows it.
        package var usage: String {
            "[\(rawValue)" + (valueName.map { " <\($0)>" } ?? "") + "]"
        }
    }

    /// The usage line.
    package static let usage = (["statetui"] + Option.allCases.map(\.usage)).joined(separator: " ")

    /// Parses the words after the program name when they open the dashboard: none at all, or only
    /// dashboard options. Returns nil when the first word is something else (a command, `--help`).
    package static func parse(_ arguments: [String]) throws(UsageError) -> DashboardOptions? {
        guard let first = arguments.first else { return DashboardOptions() }
        guard Option(rawValue: first) != nil else { return nil }
        var options = DashboardOptions()
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "-h" || word == "--help" {
                options.wantsHelp = true
                return options
            }
            if word == "-V" || word == "--version" {
                options.wantsVersion = true
                return options
            }
            if word == "--" {
                // No options after `--`, and the dashboard takes no other words.
                guard let extra = rest.first else { break }
                throw UsageError("unexpected argument \(UsageError.quote(extra))")
            }
            guard let option = Option(rawValue: word) else {
                throw UsageError("unexpected argument \(UsageError.quote(word))")
            }
            try options.apply(option, rest: &rest)
        }
        return options
    }

    /// Sets what `option` says, taking its value from the front of `rest`.
    private mutating func apply(_ option: Option, rest: inout ArraySlice<String>) throws(UsageError) {
        switch option {
        case .trace:
            guard let path = rest.popFirst(), !path.isEmpty else {
                throw UsageError("option '\(option.rawValue)' needs a file")
            }
            tracePath = path
        case .seed:
            guard let text = rest.popFirst() else { throw UsageError("option '\(option.rawValue)' needs a number") }
            guard let seed = Self.parseSeed(text) else {
                throw UsageError(
                    "option '\(option.rawValue)' needs an unsigned 64-bit integer (decimal or 0x-hexadecimal), "
                        + "got '\(text)'")
            }
            self.seed = seed
        case .noMouse:
            mouse = false
        case .inspectable:
            inspectable = true
        case .config:
            guard let path = rest.popFirst(), !path.isEmpty else {
                throw UsageError("option '\(option.rawValue)' needs a file")
            }
            configPath = path
        }
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

extension DashboardOptions {
    /// The dashboard's settings from the configuration read: its keys, and its theme at the terminal's `depth`.
    package func settings(depth: ColorDepth) -> DashboardSettings {
        DashboardSettings(keys: config.keys, theme: config.theme(at: depth), yanks: config.yanks)
    }
}
