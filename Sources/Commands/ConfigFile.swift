import DashboardApp

/// Where the configuration file is and reading it, at the edge: `--config FILE` when given, else
/// `$XDG_CONFIG_HOME/statetui/config.toml`, else `~/.config/statetui/config.toml`. A file named by `--config`
/// must exist; the usual one may be missing (every default). Anything else wrong with either is an error: the
/// program stops with status 2 rather than run with half a configuration.
package enum ConfigFile {
    /// The option that names another file, for the dashboard and `statetui copy`.
    package static let option = "config"

    /// The file used when `--config` is not given, from the environment; nil when neither
    /// `XDG_CONFIG_HOME` (an absolute path, as the XDG specification requires) nor `HOME` says where.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/statetui/config.toml"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.config/statetui/config.toml"
        }
        return nil
    }

    /// The file in force: `explicit` (`--config`), else ``defaultPath(environment:)``.
    package static func path(explicit: String?, environment: [String: String]) -> String? {
        explicit ?? defaultPath(environment: environment)
    }

    /// The configuration in force: read from `explicit` or the usual file; the defaults when the usual file does
    /// not exist. The error names the file, and the line when it concerns one.
    package static func load(explicit: String?, io: CommandIO, environment: [String: String]) throws(ConfigError)
        -> DashboardConfig
    {
        guard let path = path(explicit: explicit, environment: environment) else { return DashboardConfig() }
        switch io.readFile(path) {
        case .success(let text):
            do {
                return try DashboardConfig(parsing: text)
            } catch {
                throw error.located(in: path)
            }
        case .failure(let failure):
            if explicit == nil && failure.message == "no such file" { return DashboardConfig() }
            throw ConfigError(line: 0, failure.message, file: path)
        }
    }
}
