/// Everything that can happen to the dashboard: app-wide keys, and each screen's own actions embedded.
package enum AppAction: Hashable, Sendable {
    /// An action of one screen, embedded (``ScreenValue/embed(_:_:)``): its reducer applies it.
    case screen(ScreenValue)
    /// Show this screen (`1`–`5`).
    case select(Screen)
    /// The next screen (Tab).
    case nextScreen
    /// The previous screen (Shift-Tab).
    case previousScreen
    /// Open the help overlay (`?`).
    case showHelp
    /// Close the overlay (`Esc`, or `?` again).
    case closeOverlay
    /// Show the help overlay from this line (↑/↓/PgUp/PgDn/Home/End or the wheel while it is open).
    case scrollHelp(toLine: Int)
    /// Stop the app (`q`); when ``AppState/confirmsQuit`` holds and copies are under way, ask first.
    case quit
    /// Stop the app: the user said yes when asked (`y`).
    case quitConfirmed
    /// Stop the app as interrupted (Ctrl-C).
    case interrupt
    /// Copy to the clipboard (`y`), saying so in the status line.
    case yank(Yank)
    /// This copy's message has been shown long enough (``StatusExpiry``).
    case yankExpired(StatusLine<Yank>.Message)
}

extension AppAction {
    /// The action of the screen `kind` this is; nil for an app-wide action or another screen's.
    package func of<Kind: DashboardScreen>(_ kind: Kind.Type) -> Kind.Action? {
        guard case .screen(let value) = self else { return nil }
        return value.value(kind, as: Kind.Action.self)
    }
}
