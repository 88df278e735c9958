import DashboardApp
import SeedModels
import TerminalUI
import Testing

/// The configuration file's tables, and every name it does not know refused at its line.
@Suite struct DashboardConfigTests {
    @Test func readsKeysThemeAndCopy() throws {
        let config = try DashboardConfig(
            parsing: """
                [keys]
                quit = "x"
                pause = ["space", "p", "ctrl-p"]
                up = "f5"

                [theme]
                name = "light"
                active = "bright-green"
                paused = 208
                failed = "#FF0000"

                [copy]
                confirm_quit = false

                [clipboard]
                osc52 = false
                """)
        var expected = DashboardConfig()
        expected.keys = KeyOverrides([
            "quit": [.character("x")], "pause": [.character(" "), .character("p"), .control("p")],
            "up": [.function(5)],
        ])
        expected.themeName = .light
        expected.colors = [.active: .indexed(10), .paused: .indexed(208), .failed: .rgb(red: 255, green: 0, blue: 0)]
        expected.confirmsQuit = false
        expected.yanks = false
        #expect(config == expected)
    }

    @Test func keysMaySwapAndActionsThatShareAKeyByDefaultStillMay() throws {
        let config = try DashboardConfig(
            parsing:
                "[keys]\nfirst = \"G\"\nlast = \"g\"\nhelp = \"?\"\nclose_help = [\"esc\", \"?\"]\nyank = \"y\"\nnext_model = \"n\""
        )
        #expect(
            config.keys
                == KeyOverrides([
                    "first": [.character("G")], "last": [.character("g")], "help": [.character("?")],
                    "close_help": [.escape, .character("?")], "yank": [.character("y")],
                    "next_model": [.character("n")],
                ]))
    }

    @Test func theDefaultFileReadsBackAsTheDefaults() throws {
        #expect(try DashboardConfig(parsing: DashboardConfig.defaultFile) == DashboardConfig(defaultsSpelledOut: ()))
    }

    @Test func theDefaultFileListsEveryAction() {
        let lines = Set(DashboardConfig.defaultFile.split(separator: "\n").map(String.init))
        for action in KeyAction.all {
            #expect(lines.contains { $0.hasPrefix("\(action.name) = ") }, "\(action.name)")
        }
    }

    @Test(
        arguments: [
            (
                "quit = \"x\"",
                "1: expected a [table] header before 'quit': settings belong in [keys], [theme], [copy] or [clipboard]"
            ),
            ("[colours]", "1: unknown table [colours]: expected [keys], [theme], [copy] or [clipboard]"),
            ("[keys]\nquitt = \"x\"", "2: unknown action 'quitt' in [keys] (statetui config --default lists them)"),
            ("[keys]\nquit = \"xx\"", "2: unknown key 'xx' for quit: expected \(KeyAction.keyNames)"),
            (
                "[keys]\nquit = \"press-left@1,1\"",
                "2: unknown key 'press-left@1,1' for quit: expected \(KeyAction.keyNames)"
            ),
            ("[keys]\nquit = 1", "2: expected a key name or an array of key names for quit, found an integer"),
            ("[keys]\nquit = []", "2: expected at least one key for quit"),
            ("[keys]\nquit = [\"x\", 1]", "2: expected key names as strings for quit, found an integer"),
            ("[keys]\nquit = [\"x\", \"x\"]", "2: key 'x' is listed twice for quit"),
            ("[theme]\nname = \"blue\"", "2: expected name = \"dark\" or \"light\", found 'blue'"),
            (
                "[theme]\nidle = \"red\"",
                "2: unknown setting 'idle' in [theme]: expected name, active, paused, done, failed"
            ),
            (
                "[theme]\nactive = 256",
                "2: expected a colour for active: a name (\(ThemeColor.names.joined(separator: ", "))), an index 0 to 255 or \"#rrggbb\", found 256"
            ),
            (
                "[theme]\nactive = \"#12345g\"",
                "2: expected a colour for active: a name (\(ThemeColor.names.joined(separator: ", "))), an index 0 to 255 or \"#rrggbb\", found '#12345g'"
            ),
            ("[copy]\nconfirm = true", "2: unknown setting 'confirm' in [copy]: expected confirm_quit"),
            ("[copy]\nconfirm_quit = \"no\"", "2: expected true or false for confirm_quit, found a string"),
            ("[clipboard]\nosc52 = 0", "2: expected true or false for osc52, found an integer"),
            (
                "[keys]\n\nhelp = \"h\"",
                "3: key 'h' for help is also left's (Graph, Inspect): give left another key in [keys] too"
            ),
            (
                "[keys]\nfirst = \"x\"\nquit = [\"x\"]",
                "3: key 'x' for quit is also first's (Transfers, Graph, History, Inspect): give first another key in [keys] too"
            ),
            ("[clipboard]\nosc = true", "2: unknown setting 'osc' in [clipboard]: expected osc52"),
        ] as [(String, String)])
    func refusesWhatItDoesNotKnowAtItsLine(text: String, expected: String) {
        do {
            _ = try DashboardConfig(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == expected)
        }
    }
}

extension DashboardConfig {
    /// What `statetui config --default` spells out: every action at its default keys, the dark theme, and `q`
    /// asking before stopping copies.
    init(defaultsSpelledOut: Void) {
        self.init()
        keys = KeyOverrides(Dictionary(uniqueKeysWithValues: KeyAction.all.map { ($0.name, $0.defaultKeys) }))
        confirmsQuit = true
    }
}
