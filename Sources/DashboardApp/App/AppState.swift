/// The whole dashboard state: which screen is shown, one state per screen of ``Screen/registry`` (each read
/// with ``subscript(_:)``), the overlay and whether the app is finishing. Each screen's state holds the newest
/// snapshots of its machines, never a copy the app mutates itself.
package struct AppState: Hashable, Sendable {
    /// The screen shown (always one of ``screens``).
    package var screen: Screen
    /// The screens this dashboard has, in tab order: every one in the demo dashboard, the copies, their
    /// history and their diagram in `statetui copy`'s (``Screen/copyScreens``).
    package var screens: [Screen] = Screen.allCases
    /// Each screen's state, embedded, in ``Screen/registry``'s order.
    private var states: [ScreenValue]
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

    /// A dashboard on `screen` whose screens' states are `states`, one per screen of the registry, in its
    /// order.
    package init(screen: Screen, states: [ScreenValue], overlay: Overlay? = nil, exit: ExitReason? = nil) {
        precondition(
            states.map(\.screen) == Screen.allCases,
            "Internal inconsistency: states for \(states.map(\.screen)), not \(Screen.allCases)")
        self.screen = screen
        self.states = states
        self.overlay = overlay
        self.exit = exit
    }

    /// The state of the screen `kind`.
    package subscript<Kind: DashboardScreen>(_ kind: Kind.Type) -> Kind.State {
        get {
            guard let state = states[Self.index(of: kind)].value(kind, as: Kind.State.self) else {
                preconditionFailure("Internal inconsistency: no \(Kind.State.self) for \(Screen(kind))")
            }
            return state
        }
        set { states[Self.index(of: kind)] = .embed(kind, newValue) }
    }

    /// Changes the state of the screen `kind` in place: taken out of the app's state while `body` runs, so
    /// changing it never copies what it holds (the rows).
    package mutating func update<Kind: DashboardScreen, Result>(
        _ kind: Kind.Type, _ body: (inout Kind.State) -> Result
    ) -> Result {
        let index = Self.index(of: kind)
        let taken = states[index]
        states[index] = .embed(kind, Vacant())
        var state = taken.take(as: Kind.State.self)
        defer { states[index] = .embed(kind, state) }
        return body(&state)
    }

    private static func index<Kind: DashboardScreen>(of kind: Kind.Type) -> Int {
        let screen = Screen(kind)
        guard let index = Screen.registry.firstIndex(where: { $0.screen == screen }) else {
            preconditionFailure("Internal inconsistency: \(screen) is not in Screen.registry")
        }
        return index
    }

    /// What a screen's place holds while its state is taken out to be changed.
    private struct Vacant: Hashable, Sendable {}
}
