/// The terminal's own progress indicator (a bar in the tab or the taskbar), set with ConEmu's
/// `OSC 9 ; 4 ; state ; percent ST`, which Windows Terminal, ConEmu, WezTerm, Ghostty, iTerm2 3.6.6 and
/// later, and Ptyxis 48 and later show. Elsewhere the same bytes mean something else (iTerm2 before 3.6.6
/// shows OSC 9 as a notification), so a terminal writes it only where ``isSupported(environment:)`` says so.
public enum TerminalProgress: Hashable, Sendable {
    /// No indicator (state 0): what the terminal is left with on the way out.
    case none
    /// Work under way, this far along (state 1).
    case percent(Int)
    /// Work that failed at this point (state 2).
    case error(Int)
    /// Work under way whose share done is unknown (state 3).
    case indeterminate
    /// Work paused at this point (state 4).
    case paused(Int)

    /// The escape sequence that shows this indicator; percentages are clamped to 0…100.
    public var sequence: String {
        let (state, percent): (Int, Int) =
            switch self {
            case .none: (0, 0)
            case .percent(let value): (1, value)
            case .error(let value): (2, value)
            case .indeterminate: (3, 0)
            case .paused(let value): (4, value)
            }
        return "\u{1B}]9;4;\(state);\(min(100, max(0, percent)))\u{1B}\\"
    }

    /// Whether the terminal described by `environment` shows the indicator, as each terminal documents it:
    /// `WT_SESSION` (Windows Terminal), `ConEmuANSI=ON` (ConEmu), `TERM_PROGRAM` `WezTerm` or `ghostty`,
    /// `P` among iTerm2's `TERM_FEATURES`, `PTYXIS_VERSION` 48 or later. Never inside tmux or GNU screen
    /// (`TMUX`, `STY`, or a `TERM` of theirs): they do not pass the sequence on, and the variables above may
    /// have leaked in from the terminal outside them.
    public static func isSupported(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        let multiplexed =
            environment["TMUX"] != nil || environment["STY"] != nil || term.hasPrefix("tmux")
            || term.hasPrefix("screen")
        guard !multiplexed else { return false }
        let program = environment["TERM_PROGRAM"]
        let ptyxisMajor = environment["PTYXIS_VERSION"]?.split(separator: ".").first.flatMap { Int($0) } ?? 0
        return environment["WT_SESSION"] != nil || environment["ConEmuANSI"] == "ON" || program == "WezTerm"
            || program == "ghostty" || iTermFeaturesIncludeProgress(environment["TERM_FEATURES"] ?? "")
            || ptyxisMajor >= 48
    }

    /// Whether iTerm2's feature report lists `P` (progress): the report is a run of features, each an
    /// uppercase letter followed by lowercase letters or digits (`T3LrMSc7UUw9Ts3BFGsSyHNoSxFP`).
    static func iTermFeaturesIncludeProgress(_ features: String) -> Bool {
        var current = ""
        for character in features.prefix(256) {
            if character.isUppercase {
                if current == "P" { return true }
                current = ""
            }
            current.append(character)
        }
        return current == "P"
    }
}
