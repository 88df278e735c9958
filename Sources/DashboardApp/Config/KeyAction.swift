import TerminalUI

/// The names a configuration file's `[keys]` table binds keys to (`quit = "x"`, `pause = ["space", "p"]`): one
/// vocabulary across the screens, so `pause` is the same action on Transfers and on Upload, and `up` moves up
/// wherever there is something to move.
///
/// An action names the bindings of the key tables (``Keymap/globalBindings`` and each screen's) whose keys are
/// its default keys in the places it lists; a configured action replaces those bindings' keys, and the help bar
/// and overlay then show the new keys with the action's ``summary``. Bindings no action names (the help
/// overlay's scrolling, Ctrl-C, typing a search pattern) keep their keys. `KeyActionTests` checks that every
/// action names a binding in each of its places.
package struct KeyAction: Hashable, Sendable {
    /// Where an action's bindings are: the app-wide table or a screen's.
    package enum Place: Hashable, Sendable {
        /// ``Keymap/globalBindings``.
        case everywhere
        /// The screen's table (``Screen/feature``).
        case screen(Screen)
        /// The tables of `statetui inspect`'s screens (``InspectFeature/bindings(on:)``).
        case inspect

        /// `everywhere`, the screen's title, or `Inspect`.
        package var title: String {
            switch self {
            case .everywhere: "everywhere"
            case .screen(let screen): screen.title
            case .inspect: "Inspect"
            }
        }
    }

    /// The name in the `[keys]` table, e.g. `pause`.
    package var name: String
    /// The keys it has when no file sets it.
    package var defaultKeys: [Key]
    /// What it does, as the help lists a remapped key and `statetui config --default` comments it.
    package var summary: String
    /// The tables whose binding with ``defaultKeys`` it names.
    package var places: [Place]
    /// The help label of the binding it names, when another binding of the same table has the same keys (`y`
    /// quits when `q` asks, and copies otherwise); nil: the keys alone name it.
    package var helpLabel: String?
    /// Whether it acts only while an overlay is open (the help, the question `q` asks), when no screen's key does:
    /// its keys never clash with a screen's.
    package var inOverlay: Bool

    init(
        _ name: String, _ keys: [Key], _ summary: String, _ places: [Place], helpLabel: String? = nil,
        inOverlay: Bool = false
    ) {
        self.name = name
        self.defaultKeys = keys
        self.summary = summary
        self.places = places
        self.helpLabel = helpLabel
        self.inOverlay = inOverlay
    }

    /// The action named `name`, if any.
    package static func named(_ name: String) -> KeyAction? { all.first { $0.name == name } }

    /// The action of the binding with `keys` and help `help` in `place`, if one names it.
    package static func naming(_ keys: [Key], help: KeyHelp, in place: Place) -> KeyAction? {
        byPlace[place]?[keys]?.first { $0.helpLabel == nil || $0.helpLabel == help.label }
    }

    private static let byPlace: [Place: [[Key]: [KeyAction]]] = all.reduce(into: [:]) { table, action in
        for place in action.places { table[place, default: [:]][action.defaultKeys, default: []].append(action) }
    }

    /// The names a key may have in a file: a printable character, or one of these words.
    package static let keyNames =
        "a character, space, up, down, left, right, home, end, pageup, pagedown, insert, delete, tab, shift-tab, "
        + "esc, enter, backspace, f1 to f63, ctrl-a to ctrl-z"

    /// The key `name` stands for in a file (``Key/init(name:)`` without mouse reports and resizes), nil if none.
    package static func key(named name: String) -> Key? {
        guard let key = Key(name: name) else { return nil }
        switch key {
        case .mouse, .resize: return nil
        case .character(let character)
        where character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }):
            return nil
        default: return key
        }
    }

    /// Every action, in the order `statetui config --default` lists them.
    package static let all: [KeyAction] = {
        let transfers = Place.screen(.transfers)
        let upload = Place.screen(.upload)
        let load = Place.screen(.load)
        let graph = Place.screen(.graph)
        let history = Place.screen(.history)
        let screens: [KeyAction] = Screen.allCases.map { screen in
            KeyAction(
                "screen_\(screen.rawValue)", [.character(Character(String(screen.rawValue)))],
                "show the \(screen.title) screen", [.everywhere])
        }
        return [
            KeyAction("quit", [.character("q")], "quit", [.everywhere]),
            KeyAction("help", [.character("?")], "open the help", [.everywhere]),
            KeyAction("close_help", [.escape, .character("?")], "close the help", [.everywhere], inOverlay: true),
            KeyAction("next_screen", [.tab], "next screen", [.everywhere]),
            KeyAction("previous_screen", [.backTab], "previous screen", [.everywhere]),
        ] + screens + [
            KeyAction(
                "confirm_quit", [.character("y")], "quit when q asks", [.everywhere],
                helpLabel: "quit or stay when q asks (copies running)", inOverlay: true),
            KeyAction(
                "yank", [.character("y")], "copy the transfer's path, error or state to the clipboard", [.everywhere],
                helpLabel: "copy the transfer's path, error or state to the clipboard"),
            KeyAction("stay", [.character("n")], "stay when q asks", [.everywhere], inOverlay: true),
            KeyAction("up", [.up, .character("k")], "up / previous", [transfers, graph, history, .inspect]),
            KeyAction("down", [.down, .character("j")], "down / next", [transfers, graph, history, .inspect]),
            KeyAction("left", [.left, .character("h")], "pan left", [graph, .inspect]),
            KeyAction("right", [.right, .character("l")], "pan right", [graph, .inspect]),
            KeyAction("page_up", [.pageUp], "page up", [transfers, graph, history, .inspect]),
            KeyAction("page_down", [.pageDown], "page down", [transfers, graph, history, .inspect]),
            KeyAction("top", [.home], "to the top", [transfers, graph, history, .inspect]),
            KeyAction("bottom", [.end], "to the bottom", [transfers, graph, history, .inspect]),
            KeyAction("first", [.character("g")], "first row / top", [transfers, graph, history, .inspect]),
            KeyAction("last", [.character("G")], "last row / bottom", [transfers, graph, history, .inspect]),
            KeyAction(
                "filter", [.character("/")], "filter the list", [transfers, .inspect],
                helpLabel: "filter (type the text, enter keeps it)"),
            KeyAction("sort", [.character("o")], "sort by the next column", [transfers, history, .inspect]),
            KeyAction("start", [.character("s")], "start", [transfers, upload]),
            KeyAction("start_all", [.character("S")], "start every transfer", [transfers]),
            KeyAction("pause", [.character(" "), .character("p")], "pause / resume", [transfers, upload]),
            KeyAction("cancel", [.character("c")], "cancel", [transfers, upload]),
            KeyAction("retry", [.character("r")], "retry", [transfers, upload]),
            KeyAction("fail_next", [.character("f")], "fail the next outcome", [transfers, upload, load]),
            KeyAction(
                "state_text", [.character("v")], "states as words / canonical text", [transfers, history, .inspect]),
            KeyAction(
                "details", [.enter], "open / close the detail pane", [transfers],
                helpLabel: "open / close the detail pane"),
            KeyAction(
                "close_details", [.escape], "close the detail pane", [transfers], helpLabel: "close the detail pane"),
            KeyAction("refresh", [.character("r")], "refresh", [load]),
            KeyAction("late_response", [.character("l")], "late response (after a failure)", [load]),
            KeyAction("next_model", [.character("]")], "next model", [graph]),
            KeyAction("previous_model", [.character("[")], "previous model", [graph]),
            KeyAction("far_left", [.character("H")], "pan far left", [graph, .inspect]),
            KeyAction("far_right", [.character("L")], "pan far right", [graph, .inspect]),
            KeyAction("full_graph", [.character("f")], "full graph / by case", [graph, .inspect]),
            KeyAction("table", [.character("t")], "table / diagram", [graph]),
            KeyAction("write_mermaid", [.character("m")], "write the Mermaid file", [graph]),
            KeyAction("next_machine", [.character("]")], "next machine", [history, .inspect]),
            KeyAction("previous_machine", [.character("[")], "previous machine", [history, .inspect]),
            KeyAction(
                "search", [.character("/")], "search", [history, .inspect],
                helpLabel: "search (type the pattern, enter searches)"),
            KeyAction("next_match", [.character("n")], "next match", [history, .inspect]),
            KeyAction("previous_match", [.character("N")], "previous match", [history, .inspect]),
        ]
    }()
}

/// The keys a configuration file binds to actions (``KeyAction``): what is in force differs from the defaults
/// only where the file says so.
package struct KeyOverrides: Hashable, Sendable {
    /// The keys of each action the file sets, by action name.
    package var keys: [String: [Key]]

    /// Overrides of the actions named in `keys`.
    package init(_ keys: [String: [Key]] = [:]) { self.keys = keys }

    /// `table` with the bindings of `place` whose action the file sets given its keys; the help names the new
    /// keys with the action's summary, so the bar and the overlay show the keys in force.
    package func applied<State, Action>(to table: [KeyBinding<State, Action>], in place: KeyAction.Place)
        -> [KeyBinding<State, Action>]
    {
        guard !keys.isEmpty else { return table }
        return table.map { binding in
            guard let action = KeyAction.naming(binding.keys, help: binding.help, in: place),
                let keys = keys[action.name]
            else {
                return binding
            }
            var remapped = binding
            let label = Self.label(keys)
            remapped.keys = keys
            remapped.help = KeyHelp(label, action.summary)
            let bar = binding.bar
            remapped.bar = { state, size in bar(state, size).map { KeyHelp(label, $0.label) } }
            return remapped
        }
    }

    /// How the help shows keys: their names joined with `/`.
    package static func label(_ keys: [Key]) -> String {
        keys.map(\.description).joined(separator: "/")
    }
}
