import Support

/// A terminal application as pure pieces plus one effect runner: Model (state), Update (`reduce`), View
/// (`view`) and key bindings (`keymap`, the one map from an input event to an action). Everything but `runEffect` and the subscriptions is pure; the
/// ``Store`` runs the loop.
public struct App<State: Equatable & Sendable, Action: Sendable, Effect: Sendable>: Sendable {
    /// The state at start.
    public var initialState: State {
        get {
            guard let initial else {
                preconditionFailure("App.initialState read after a Store took it: the store's state is the only copy")
            }
            return initial
        }
        set { initial = newValue }
    }
    /// ``initialState``; nil once a ``Store`` took it (``takeInitialState()``).
    private var initial: State?
    /// The only place state changes: applies an action, returns the work to do as values.
    public var reduce: @Sendable (inout State, Action) -> [Effect]
    /// The screen for a state at a size. Pure: no clock, no I/O.
    public var view: @Sendable (State, Size) -> Canvas
    /// The action an event means in a state drawn at a size (nil: it does nothing there): the one keymap.
    /// The size is that of the frame on screen (the one the user saw and clicked on), for apps where the
    /// meaning depends on what is drawn where: a mouse report hits a tab or a row, a page is as tall as the
    /// drawn list. ``Key/resize`` comes here too.
    public var keymap: @Sendable (Key, State, Size) -> Action?
    /// Whether the app is done (the run loop returns the state then).
    public var isFinished: @Sendable (State) -> Bool
    /// Performs one effect, sending any resulting actions back. Runs in its own task once the effects asked for
    /// before it have finished, so effects reach the world in the order keys asked for them; work that lasts
    /// belongs in a subscription or a machine's `whileIn`, not in an effect.
    public var runEffect: @Sendable (Effect, Send<Action>) async -> Void
    /// Sources of actions that live as long as the run loop.
    public var subscriptions: [Subscription<Action>]
    /// The subscriptions a state asks for, by ``Subscription/id``: the store starts one when a state first
    /// asks for its id and cancels it once a state no longer does (a screen that listens only while shown).
    public var subscribe: @Sendable (State) -> [Subscription<Action>]
    /// The key that suspends to the shell (Ctrl-Z by default; nil: none).
    public var suspendKey: Key?
    /// What the terminal's own progress indicator shows for a state (``TerminalProgress``; none by default).
    /// Pure, like the view: the store shows it with each frame, and terminals without one ignore it.
    public var progress: @Sendable (State) -> TerminalProgress
    /// What a state puts on the clipboard (``ClipboardCopy``; nothing by default). Pure, like the view: the
    /// store hands it to the terminal with each frame, which writes each copy number once.
    public var clipboard: @Sendable (State) -> ClipboardCopy?

    /// Creates an app.
    public init(
        initialState: State,
        reduce: @escaping @Sendable (inout State, Action) -> [Effect],
        view: @escaping @Sendable (State, Size) -> Canvas,
        keymap: @escaping @Sendable (Key, State, Size) -> Action?,
        isFinished: @escaping @Sendable (State) -> Bool,
        runEffect: @escaping @Sendable (Effect, Send<Action>) async -> Void = { _, _ in },
        subscriptions: [Subscription<Action>] = [],
        subscribe: @escaping @Sendable (State) -> [Subscription<Action>] = { _ in [] },
        suspendKey: Key? = .controlZ,
        progress: @escaping @Sendable (State) -> TerminalProgress = { _ in .none },
        clipboard: @escaping @Sendable (State) -> ClipboardCopy? = { _ in nil }
    ) {
        self.initial = initialState
        self.reduce = reduce
        self.view = view
        self.keymap = keymap
        self.isFinished = isFinished
        self.runEffect = runEffect
        self.subscriptions = subscriptions
        self.subscribe = subscribe
        self.suspendKey = suspendKey
        self.progress = progress
        self.clipboard = clipboard
    }

    /// The initial state, taken out: this app holds none from now on (``initialState`` must not be read again).
    /// A ``Store`` takes it so that its state is the only copy and changes in place: an app that kept it beside
    /// the store's made the first change copy the whole state and kept the original for the whole run (a copy
    /// dashboard's list of rows, 88 bytes a row, twice).
    mutating func takeInitialState() -> State {
        defer { initial = nil }
        return initialState
    }

    /// Runs the app on `terminal` on the calling thread until ``isFinished`` holds; returns the final state.
    /// Consuming: the store it runs holds the only copy of the state (``takeInitialState()``).
    @discardableResult
    public consuming func run(
        on terminal: some Terminal, trace: FrameTrace? = nil, pacer: FramePacer = FramePacer()
    ) -> State {
        Store(app: consume self).run(on: terminal, trace: trace, pacer: pacer)
    }

    /// Runs the app on `terminal` on a thread of its own (the run loop blocks while it waits for keys, which
    /// must not happen on a Swift concurrency thread); returns the final state. The app is handed to that thread,
    /// which takes it from here, so nothing else keeps its initial state while it runs.
    @discardableResult
    public consuming func run<T: Terminal & Sendable>(
        detachedOn terminal: T, trace: FrameTrace? = nil, pacer: FramePacer = FramePacer()
    ) async -> State {
        let handedOver = Locked<App?>(consume self)
        return await DetachedThread.value(name: "TerminalUI run loop") {
            guard let app = handedOver.withLock({ $0.take() }) else {
                preconditionFailure("Internal inconsistency: the app was run twice")
            }
            return (consume app).run(on: terminal, trace: trace, pacer: pacer)
        }
    }
}
