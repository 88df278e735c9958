import DashboardApp

/// `statetui config [--default] [--config FILE]`: checks the configuration file in force, or prints a commented
/// file with every action and its default keys, the theme and the copy settings.
package enum ConfigCommand {
    package static let spec = CommandSpec(
        name: "config",
        abstract: "Check the configuration file, or print one with every default (--default).",
        options: [
            .init(
                name: ConfigFile.option, valueName: "file",
                help: "The file to check instead of $XDG_CONFIG_HOME/statetui/config.toml.", completion: .files)
        ],
        flags: [
            .init(name: "default", help: "Print a commented configuration file with every action and its default keys.")
        ],
        discussion: """
            The file is read from --config, else $XDG_CONFIG_HOME/statetui/config.toml, else
            ~/.config/statetui/config.toml. Its tables: [keys] binds actions to keys (quit = "x",
            pause = ["space", "p"]), [theme] picks name = "dark" or "light" and colours the phases
            (active, paused, done, failed), [copy] sets confirm_quit. Anything it does not know stops the
            dashboard and 'statetui copy' with exit status 2, naming the file and the line.
            Without --default, prints the file checked and exits 0, or the error and exits 2.
            """)

    /// Runs the parsed command.
    static func run(_ command: ParsedCommand, io: CommandIO, environment: [String: String]) -> Int32 {
        if command.flags.contains("default") {
            io.writeOutput(DashboardConfig.defaultFile)
            return 0
        }
        let explicit = command.options[ConfigFile.option]
        do {
            _ = try ConfigFile.load(explicit: explicit, io: io, environment: environment)
        } catch {
            io.writeError("statetui: \(error)\n")
            return 2
        }
        switch ConfigFile.path(explicit: explicit, environment: environment) {
        case let path?:
            let found = (try? io.readFile(path).get()) != nil
            io.writeOutput("\(ConfigText.escaped(path)): " + (found ? "ok\n" : "no such file (the defaults)\n"))
        case nil: io.writeOutput("no configuration file (neither XDG_CONFIG_HOME nor HOME is set): the defaults\n")
        }
        return 0
    }
}
