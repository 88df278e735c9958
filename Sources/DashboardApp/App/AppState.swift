/// The whole dashboard state: which screen is shown, one child state per screen feature, the overlay and
/// whether the app is finishing. Each child holds the newest snapshots of its machines, never a copy the
/// app mutates itself.
package struct AppState: Hashable, Sendable {
    /// The screen shown (always one of ``screens``).
    package var screen: Screen
    /// The screens this dashboard has, in tab order: every one in the demo dashboard, the copies, their
    /// history and their diagram in `statetui copy`'s (``Screen/copyScreens``).
    package var screens: [Screen] = Screen.allCases
    /// The Transfers screen.
    package var transfers: TransfersScreenState
    /// The Upload screen.
    package var upload: UploadScreenState
    /// The Load screen.
    package var load: LoadScreenState
    /// The Graph screen.
    package var graph: GraphScreenState
    /// The History screen.
    package var history: HistoryScreenState
    /// What is drawn over the screen, if anything.
    package var overlay: Overlay?
    /// The first line the help overlay shows (it scrolls when taller than the terminal); 0 when closed.
    package var helpOffset: Int = 0
    /// Set when the app should stop; the run loop returns once it is.
    package var exit: ExitReason?
    /// Whether `q` asks before stopping while transfers are under way (running or paused): on for the real
    /// copies of `statetui copy` unless `--no-confirm`.
    package var confirmsQuit = false
    /// The keys and the theme a configuration file sets (``DashboardSettings``).
    package var settings = DashboardSettings()
    /// What `y` copied last, said in the status line until it expires (``Yank``).
    package var yank = StatusLine<Yank>()

    /// A dashboard on `screen` with the given child states.
    package init(
        screen: Screen = .transfers, transfers: TransfersScreenState, upload: UploadScreenState = UploadScreenState(),
        load: LoadScreenState = LoadScreenState(), graph: GraphScreenState = GraphScreenState(),
        history: HistoryScreenState = HistoryScreenState(), overlay: Overlay? = nil, exit: ExitReason? = nil
    ) {
        self.screen = screen
        self.transfers = transfers
        self.upload = upload
        self.load = load
        self.graph = graph
        self.history = history
        self.overlay = overlay
        self.exit = exit
    }
}
