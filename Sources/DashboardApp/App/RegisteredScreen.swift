import TerminalUI

/// A ``DashboardScreen`` lifted into the app, once, generically: its state read out of ``AppState``, its
/// actions and effects embedded as ``ScreenValue``s, its key table, view, reducer and edge hooks in the app's
/// types. ``Screen/registry`` holds one per screen; ``AppReducer``, ``Keymap``, ``AppView``,
/// ``DashboardEnvironment`` and ``DemoSession`` read them.
package struct RegisteredScreen: Sendable {
    /// The screen.
    package let screen: Screen
    /// The screen's key table, lifted to the app's state and actions.
    package let bindings: [KeyBinding<AppState, AppAction>]
    /// What a key types into a text field the screen shows (History's search pattern), asked before any table so
    /// every printable key, the app-wide `q`, `?` and digits included, goes into it; nil when none takes it.
    let textInput: @Sendable (Key, AppState) -> AppAction?
    /// Draws the screen's content in an area: the content area inside the frame the shell draws around every
    /// screen (``AppView/contentArea(_:)``).
    let view: @Sendable (AppState, Rect, inout Canvas) -> Void
    /// Applies an action of this screen's in place (a stored value taken out, never copied), returning the
    /// effects.
    let reduce: @Sendable (inout AppState, ScreenValue) -> [AppEffect]
    /// Follows the rest of the app after an action while the screen is shown.
    let follow: @Sendable (inout AppState) -> Void
    /// What the terminal's progress indicator shows for the screen.
    let progress: @Sendable (AppState) -> TerminalProgress
    /// Makes the runtime in a world, given the machines the screens before it publish.
    let makeRuntime: @Sendable (World, [NamedMachine]) -> any Sendable
    /// The machines a runtime holds.
    let machines: @Sendable (any Sendable) -> [NamedMachine]
    /// The screen's state before any snapshot, embedded.
    let initialState: @Sendable (any Sendable, DashboardMode, [NamedMachine]) -> ScreenValue
    /// The subscriptions the app state asks for of the runtime.
    let subscriptions: @Sendable (any Sendable, AppState) -> [Subscription<AppAction>]
    /// The status messages the app state shows.
    let statusMessages: @Sendable (AppState) -> [(id: String, expired: AppAction)]
    /// Performs an effect of this screen's on the runtime.
    let perform: @Sendable (ScreenValue, any Sendable, Send<AppAction>) -> Void
    /// Whether the app state has caught up with the runtime.
    let isSettled: @Sendable (AppState, any Sendable) -> Bool
    /// Stops the runtime.
    let stop: @Sendable (any Sendable) -> Void

    /// `Kind` lifted into the app.
    package init<Kind: DashboardScreen>(_ kind: Kind.Type) {
        let screen = Screen(kind)
        @Sendable func action(_ action: Kind.Action) -> AppAction { .screen(.embed(kind, action)) }
        @Sendable func runtime(_ erased: any Sendable) -> Kind.Runtime {
            guard let runtime = erased as? Kind.Runtime else {
                preconditionFailure("Internal inconsistency: \(screen) given a \(type(of: erased)) as its runtime")
            }
            return runtime
        }
        self.screen = screen
        bindings = Kind.bindings.map { $0.scoped(state: { $0[kind] }, action: action) }
        textInput = { key, app in Kind.textInput(key, app[kind]).map(action) }
        view = { app, area, canvas in Kind.view(app[kind], in: area, on: &canvas) }
        reduce = { app, value in
            guard let own = value.value(kind, as: Kind.Action.self) else { return [] }
            return app.update(kind) { Kind.reduce(&$0, own) }.map { AppEffect(.embed(kind, $0)) }
        }
        follow = { app in
            if let follow = Kind.follow(app) { app.update(kind, follow) }
        }
        progress = { Kind.progress($0[kind]) }
        makeRuntime = { Kind.makeRuntime($0, machines: $1) }
        machines = { Kind.machines(runtime($0)) }
        initialState = { .embed(kind, Kind.initialState(runtime($0), mode: $1, machines: $2)) }
        subscriptions = { erased, app in
            Kind.subscriptions(runtime(erased), app[kind], shown: app.screen == screen).map { $0.map(action) }
        }
        statusMessages = { app in Kind.statusMessages(app[kind]).map { ($0.id, action($0.expired)) } }
        perform = { value, erased, send in
            guard let effect = value.value(kind, as: Kind.Effect.self) else { return }
            Kind.perform(effect, on: runtime(erased), send: Send { send(action($0)) })
        }
        isSettled = { app, erased in Kind.isSettled(app[kind], runtime(erased), shown: app.screen == screen) }
        stop = { Kind.stop(runtime($0)) }
    }
}
