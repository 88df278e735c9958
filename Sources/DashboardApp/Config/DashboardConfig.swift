import SeedModels
import TerminalUI

/// What a configuration file (`config.toml`) sets, checked whole: `[keys]` binds actions (``KeyAction``) to
/// keys, `[theme]` picks the theme and colours phases, `[copy]` holds `statetui copy`'s defaults. Any table,
/// key, action, key name or colour it does not know is an error naming its line, so a file is used whole or
/// not at all.
package struct DashboardConfig: Hashable, Sendable {
    /// The keys bound to actions.
    package var keys = KeyOverrides()
    /// The theme chosen (`[theme] name`).
    package var themeName = Theme.Name.dark
    /// The colours set per phase (`[theme] active = "green"`).
    package var colors: [PresentedPhase: ThemeColor] = [:]
    /// Whether `q` asks before stopping copies under way (`[copy] confirm_quit`); nil: not set.
    package var confirmsQuit: Bool?
    /// Whether `y` copies to the clipboard through the terminal (`[clipboard] osc52`).
    package var yanks = true

    /// Nothing set: every default.
    package init() {}

    /// The tables a file may have.
    package static let tables = ["keys", "theme", "copy", "clipboard"]

    /// Reads a configuration file's text; throws the first thing it does not accept, at its line.
    package init(parsing text: String) throws(ConfigError) {
        let document = try ConfigDocument(parsing: text)
        for table in document.tables {
            switch table.name {
            case "keys": try readKeys(table)
            case "theme": try readTheme(table)
            case "copy": try readCopy(table)
            case "clipboard": try readClipboard(table)
            case "":
                throw ConfigError(
                    line: table.entries[0].line,
                    "expected a [table] header before \(ConfigText.quoted(table.entries[0].key)): settings belong "
                        + "in [keys], [theme], [copy] or [clipboard]")
            default:
                throw ConfigError(
                    line: table.line, "unknown table [\(table.name)]: expected [keys], [theme], [copy] or [clipboard]")
            }
        }
    }

    /// The theme this configuration picks, shown at `depth`.
    package func theme(at depth: ColorDepth) -> Theme {
        Theme(name: themeName, overrides: colors, depth: depth)
    }

    private mutating func readKeys(_ table: ConfigDocument.Table) throws(ConfigError) {
        for entry in table.entries {
            guard let action = KeyAction.named(entry.key) else {
                throw ConfigError(
                    line: entry.line,
                    "unknown action \(ConfigText.quoted(entry.key)) in [keys] (statetui config --default lists them)"
                )
            }
            let names: [String]
            switch entry.value {
            case .string(let name): names = [name]
            case .array(let values):
                names = try values.map { value throws(ConfigError) in
                    guard case .string(let name) = value else {
                        throw ConfigError(
                            line: entry.line, "expected key names as strings for \(action.name), found \(value.kind)")
                    }
                    return name
                }
                guard !names.isEmpty else {
                    throw ConfigError(line: entry.line, "expected at least one key for \(action.name)")
                }
            default:
                throw ConfigError(
                    line: entry.line,
                    "expected a key name or an array of key names for \(action.name), found \(entry.value.kind)")
            }
            var keys: [Key] = []
            for name in names {
                guard let key = KeyAction.key(named: name) else {
                    throw ConfigError(
                        line: entry.line,
                        "unknown key \(ConfigText.quoted(name)) for \(action.name): expected \(KeyAction.keyNames)")
                }
                guard !keys.contains(key) else {
                    throw ConfigError(
                        line: entry.line, "key \(ConfigText.quoted(name)) is listed twice for \(action.name)")
                }
                keys.append(key)
            }
            self.keys.keys[action.name] = keys
        }
        try checkConflicts(
            lines: Dictionary(table.entries.map { ($0.key, $0.line) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Refuses a key the file binds to an action that another action of the same screen (or an app-wide one)
    /// also has in force, so no key silently stops doing one of them; actions that share a key by default (`y`
    /// quits when asked and copies otherwise) may keep sharing it. `lines` gives each action's line in the file.
    private func checkConflicts(lines: [String: Int]) throws(ConfigError) {
        /// The tables where an action's keys are asked: every screen's for an app-wide one, none for one that acts
        /// only under an overlay.
        func reach(_ action: KeyAction) -> Set<KeyAction.Place> {
            guard !action.inOverlay else { return [] }
            return Set(
                action.places.flatMap { place -> [KeyAction.Place] in
                    switch place {
                    case .everywhere: Screen.allCases.map(KeyAction.Place.screen)
                    case .screen, .inspect: [place]
                    }
                })
        }
        for action in KeyAction.all {
            guard let keys = self.keys.keys[action.name] else { continue }
            for other in KeyAction.all where other.name != action.name {
                let shared = !reach(action).isDisjoint(with: reach(other))
                guard shared, Set(action.defaultKeys).isDisjoint(with: other.defaultKeys) else { continue }
                let otherKeys = self.keys.keys[other.name] ?? other.defaultKeys
                guard let clash = keys.first(where: otherKeys.contains) else { continue }
                let otherPlaces = other.places.map(\.title).joined(separator: ", ")
                throw ConfigError(
                    line: lines[action.name] ?? 0,
                    "key \(ConfigText.quoted(clash.description)) for \(action.name) is also \(other.name)'s (\(otherPlaces)): "
                        + "give \(other.name) another key in [keys] too")
            }
        }
    }

    private mutating func readTheme(_ table: ConfigDocument.Table) throws(ConfigError) {
        let phases = Dictionary(uniqueKeysWithValues: Theme.colouredPhases.map { (Theme.key($0), $0) })
        for entry in table.entries {
            if entry.key == "name" {
                guard case .string(let text) = entry.value, let name = Theme.Name(rawValue: text) else {
                    throw ConfigError(
                        line: entry.line,
                        "expected name = \"dark\" or \"light\", found \(Self.describe(entry.value))")
                }
                themeName = name
                continue
            }
            guard let phase = phases[entry.key] else {
                throw ConfigError(
                    line: entry.line,
                    "unknown setting \(ConfigText.quoted(entry.key)) in [theme]: expected name, "
                        + Theme.colouredPhases.map(Theme.key).joined(separator: ", "))
            }
            let color: ThemeColor?
            switch entry.value {
            case .string(let text): color = ThemeColor(name: text)
            case .integer(let index): color = (0...255).contains(index) ? .indexed(UInt8(index)) : nil
            default: color = nil
            }
            guard let color else {
                throw ConfigError(
                    line: entry.line,
                    "expected a colour for \(entry.key): a name (\(ThemeColor.names.joined(separator: ", "))), an "
                        + "index 0 to 255 or \"#rrggbb\", found \(Self.describe(entry.value))")
            }
            colors[phase] = color
        }
    }

    private mutating func readCopy(_ table: ConfigDocument.Table) throws(ConfigError) {
        for entry in table.entries {
            guard entry.key == "confirm_quit" else {
                throw ConfigError(
                    line: entry.line, "unknown setting \(ConfigText.quoted(entry.key)) in [copy]: expected confirm_quit"
                )
            }
            guard case .boolean(let value) = entry.value else {
                throw ConfigError(
                    line: entry.line, "expected true or false for confirm_quit, found \(entry.value.kind)")
            }
            confirmsQuit = value
        }
    }

    private mutating func readClipboard(_ table: ConfigDocument.Table) throws(ConfigError) {
        for entry in table.entries {
            guard entry.key == "osc52" else {
                throw ConfigError(
                    line: entry.line, "unknown setting \(ConfigText.quoted(entry.key)) in [clipboard]: expected osc52")
            }
            guard case .boolean(let value) = entry.value else {
                throw ConfigError(line: entry.line, "expected true or false for osc52, found \(entry.value.kind)")
            }
            yanks = value
        }
    }

    /// A value as an error quotes it: a string in quotes, else its kind.
    private static func describe(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): ConfigText.quoted(text)
        case .integer(let number): String(number)
        case .boolean, .array: value.kind
        }
    }

    /// The file `statetui config --default` prints: every table, action and setting at its default, each with a
    /// comment; read back, it sets exactly the defaults.
    package static var defaultFile: String {
        var lines =
            [
                "# statetui configuration: $XDG_CONFIG_HOME/statetui/config.toml (else ~/.config/statetui/config.toml),",
                "# or the file named by --config. Every value below is the default; change or delete lines as you like.",
                "# A line statetui does not understand stops it with exit status 2, naming the file and the line.",
                "",
                "[keys]",
                "# An action takes a key name or a list of them: quit = \"x\", pause = [\"space\", \"p\"].",
            ] + comment("Key names: \(KeyAction.keyNames).") + [
                "# The app-wide keys are asked first, then the screen's."
            ]
        for action in KeyAction.all {
            let keys = action.defaultKeys.map { "\"\($0.description)\"" }
            let value = keys.count == 1 ? keys[0] : "[" + keys.joined(separator: ", ") + "]"
            lines.append("")
            lines.append("# \(action.summary) (\(action.places.map(\.title).joined(separator: ", ")))")
            lines.append("\(action.name) = \(value)")
        }
        lines += [
            "", "[theme]", "# \"dark\" or \"light\": the colours for a dark or a light terminal background.",
            "name = \"dark\"",
        ]
        lines += comment(
            "A phase's colour: a name (\(ThemeColor.names.joined(separator: ", "))), a 256-colour index (0 to 255) "
                + "or \"#rrggbb\" (shown as the nearest the terminal has). NO_COLOR turns every colour off. Unset, a "
                + "phase has the theme's colour:")
        for phase in Theme.colouredPhases {
            let color = Theme.builtIn(phase, .dark, at: .ansi8).map(\.description) ?? "\"white\""
            lines.append("# \(Theme.key(phase)) = \(color)")
        }
        lines += [
            "", "[copy]", "# Whether q asks before stopping copies that are running or paused (--no-confirm: never).",
            "confirm_quit = true",
            "", "[clipboard]",
            "# Whether y copies the selected transfer's path, error or state to the clipboard through the terminal",
            "# (OSC 52: xterm, kitty, WezTerm, iTerm2, Windows Terminal; tmux with set-clipboard on).",
            "osc52 = true",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as `#` comment lines of at most 100 columns, broken between words.
    private static func comment(_ text: String) -> [String] {
        text.split(separator: " ").reduce(into: [String]()) { lines, word in
            if let last = lines.last, last.count + 1 + word.count <= 100 {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append("# " + word)
            }
        }
    }
}
