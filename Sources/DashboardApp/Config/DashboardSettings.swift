/// What a configuration file changes in the dashboard, carried in ``AppState`` so the keymap and the views stay
/// pure functions of the state: the keys in force and the theme. Read at the edge (`statetui`'s command line),
/// never by a view.
package struct DashboardSettings: Hashable, Sendable {
    /// The keys the file binds to actions.
    package var keys: KeyOverrides
    /// The theme, at the terminal's colour depth.
    package var theme: Theme

    /// Settings; by default every key and colour as built in.
    package init(keys: KeyOverrides = KeyOverrides(), theme: Theme = Theme()) {
        self.keys = keys
        self.theme = theme
    }
}
