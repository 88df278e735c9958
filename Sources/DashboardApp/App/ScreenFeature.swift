import TerminalUI

/// One screen's registration: its feature lifted into the app (its key table, view, reducer and the runtime
/// that performs its effects), read by ``Keymap/bindings(for:)``, ``AppView``, ``AppReducer`` and
/// ``DashboardEnvironment``. ``Screen/feature`` holds the one entry of each screen.
package struct ScreenFeature: Sendable {
    /// The screen's key table, lifted to the app's state and actions.
    package let bindings: [KeyBinding<AppState, AppAction>]
    /// What a key types into a text field the screen shows (History's search pattern), asked before any table so
    /// every printable key, the app-wide `q`, `?` and digits included, goes into it; nil when none takes it.
    let textInput: @Sendable (Key, AppState) -> AppAction?
    /// Draws the screen's content in an area: the content area inside the frame the shell draws around every
    /// screen (``AppView/contentArea(_:)``).
    let view: @Sendable (AppState, Rect, inout Canvas) -> Void
    /// Applies an action when it is this screen's, returning the effects; nil for another screen's action.
    let reduce: @Sendable (inout AppState, AppAction) -> [AppEffect]?
    /// Performs an effect when it is this screen's, on the environment's runtime; false for another's.
    let perform: @Sendable (DashboardEnvironment, AppEffect, Send<AppAction>) -> Bool

    /// A screen whose state `state` reads out of the app's, whose actions and effects the app wraps with
    /// `action` and `effect` (`actionOf` and `effectOf` unwrap them), with its feature's `reduce` (applied in
    /// place to the app's state: a stored property, not a key path, so the rows are never copied), `view` and
    /// `bindings`, and `perform` running its effects on the environment.
    init<State: Sendable, Action: Sendable, Effect: Sendable>(
        state: @escaping @Sendable (AppState) -> State,
        action: @escaping @Sendable (Action) -> AppAction, actionOf: @escaping @Sendable (AppAction) -> Action?,
        effect: @escaping @Sendable (Effect) -> AppEffect, effectOf: @escaping @Sendable (AppEffect) -> Effect?,
        reduce: @escaping @Sendable (inout AppState, Action) -> [Effect],
        view: @escaping @Sendable (State, Rect, inout Canvas) -> Void,
        bindings: [KeyBinding<State, Action>],
        perform: @escaping @Sendable (DashboardEnvironment, Effect, Send<Action>) -> Void
    ) {
        self.init(
            state: state, action: action, view: view, bindings: bindings, textInput: { _, _ in nil },
            reduce: { app, wrapped in actionOf(wrapped).map { reduce(&app, $0).map(effect) } },
            perform: { environment, wrapped, send in
                guard let own = effectOf(wrapped) else { return false }
                perform(environment, own, Send { send(action($0)) })
                return true
            })
    }

    /// A screen that asks for no effects (History): its `reduce` returns nothing.
    init<State: Sendable, Action: Sendable>(
        state: @escaping @Sendable (AppState) -> State,
        action: @escaping @Sendable (Action) -> AppAction, actionOf: @escaping @Sendable (AppAction) -> Action?,
        reduce: @escaping @Sendable (inout AppState, Action) -> Void,
        view: @escaping @Sendable (State, Rect, inout Canvas) -> Void,
        bindings: [KeyBinding<State, Action>],
        textInput: @escaping @Sendable (Key, State) -> Action? = { _, _ in nil }
    ) {
        self.init(
            state: state, action: action, view: view, bindings: bindings, textInput: textInput,
            reduce: { app, wrapped in
                actionOf(wrapped).map {
                    reduce(&app, $0)
                    return []
                }
            }, perform: { _, _, _ in false })
    }

    private init<State: Sendable, Action: Sendable>(
        state: @escaping @Sendable (AppState) -> State, action: @escaping @Sendable (Action) -> AppAction,
        view: @escaping @Sendable (State, Rect, inout Canvas) -> Void, bindings: [KeyBinding<State, Action>],
        textInput: @escaping @Sendable (Key, State) -> Action?,
        reduce: @escaping @Sendable (inout AppState, AppAction) -> [AppEffect]?,
        perform: @escaping @Sendable (DashboardEnvironment, AppEffect, Send<AppAction>) -> Bool
    ) {
        self.bindings = bindings.map { $0.scoped(state: state, action: action) }
        self.textInput = { key, app in textInput(key, state(app)).map(action) }
        self.view = { app, area, canvas in view(state(app), area, &canvas) }
        self.reduce = reduce
        self.perform = perform
    }
}
