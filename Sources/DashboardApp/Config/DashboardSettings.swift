/// What a configuration file changes in the dashboard, carried in ``AppState`` so the keymap and the views stay
/// pure functions of the state: the keys in force and the theme. Read at the edge (`statetui`'s command line),
/// never by a view.
package struct DashboardSettings: Hashable, Sendable {
    /// The keys the file binds to actions.
    package var keys: KeyOverrides
    /// The theme, at the terminal's colour depth.
    package var theme: Theme
    /// Whether `y` copies to the clipboard through the terminal (``Yank``); off with `[clipboard] osc52 = false`.
    package var yanks: Bool

    /// Settings; by default every key and colour as built in, and `y` copying.
    package init(keys: KeyOverrides = KeyOverrides(), theme: Theme = Theme(), yanks: Bool = true) {
        self.keys = keys
        self.theme = theme
        self.yanks = yanks
    }
}
