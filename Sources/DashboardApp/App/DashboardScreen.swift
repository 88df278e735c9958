import TerminalUI

/// One screen of the dashboard, whole: its state, actions and effects (its own types), its reducer, view and
/// key table, and its edge: the runtime it builds from the ``World``, the subscriptions it asks for, how it
/// performs its effects, the status messages that clear themselves and what "settled" means for a scripted
/// demo. The app lists the screens once (``Screen/registry``) and embeds their actions and effects in one
/// generic way (``ScreenValue``), so adding a screen is one new folder and one line there.
///
/// Everything but the runtime's hooks is pure. Scrolling actions count rows one way: positive scrolls down
/// (forward), negative up. The types are used from any thread (their metatypes are sendable): a screen
/// type holds no state, only what its static members say.
package protocol DashboardScreen: SendableMetatype {
    /// What the screen shows: the newest snapshots of its machines and its own view state.
    associatedtype State: Hashable & Sendable
    /// What can happen on the screen: its keys, its machines' snapshots, its effects' results.
    associatedtype Action: Hashable & Sendable
    /// Work the screen asks for, as values (`Never` for a screen asking for none).
    associatedtype Effect: Hashable & Sendable = Never
    /// The screen's edge: its machines and workers, built from the ``World``.
    associatedtype Runtime: Sendable = Void

    /// The tab's title.
    static var title: String { get }
    /// The screen's key table.
    static var bindings: [KeyBinding<State, Action>] { get }

    /// The runtime in `world`; `machines` are those the screens listed before this one publish
    /// (``machines(_:)``).
    static func makeRuntime(_ world: World, machines: [NamedMachine]) -> Runtime
    /// The machines the runtime holds, by the names History and the inspector give them.
    static func machines(_ runtime: Runtime) -> [NamedMachine]
    /// The screen before any snapshot arrived, in the dashboard `mode`; `machines` are every screen's of the
    /// dashboard.
    static func initialState(_ runtime: Runtime, mode: DashboardMode, machines: [NamedMachine]) -> State
    /// Applies an action; returns the effects to run, as values.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect]
    /// How the screen follows the rest of the app after every action while it is shown (Graph lights the
    /// live machines' states), read from `app` before the change; nil by default: it follows nothing.
    static func follow(_ app: AppState) -> (@Sendable (inout State) -> Void)?
    /// Draws the screen's content in `area`, the content area inside the shell's frame.
    static func view(_ state: State, in area: Rect, on canvas: inout Canvas)
    /// What a key types into a text field the screen shows, asked before any key table; nil by default.
    static func textInput(_ key: Key, _ state: State) -> Action?
    /// What the terminal's own progress indicator shows for the screen; none by default.
    static func progress(_ state: State) -> TerminalProgress
    /// The subscriptions the screen asks for in `state` (`shown`: it is the screen on display).
    static func subscriptions(_ runtime: Runtime, _ state: State, shown: Bool) -> [Subscription<Action>]
    /// The status messages `state` shows, each with the id of its timer and the action that clears it.
    static func statusMessages(_ state: State) -> [(id: String, expired: Action)]
    /// Performs one effect on the runtime, sending any resulting actions back.
    static func perform(_ effect: Effect, on runtime: Runtime, send: Send<Action>)
    /// Whether `state` has caught up with the runtime's machines and workers (a scripted demo's next step
    /// waits for it); read only to know when to step, never to change the state.
    static func isSettled(_ state: State, _ runtime: Runtime, shown: Bool) -> Bool
    /// Stops the runtime's machines and workers.
    static func stop(_ runtime: Runtime)
}

extension DashboardScreen {
    package static func machines(_ runtime: Runtime) -> [NamedMachine] { [] }
    package static func follow(_ app: AppState) -> (@Sendable (inout State) -> Void)? { nil }
    package static func textInput(_ key: Key, _ state: State) -> Action? { nil }
    package static func progress(_ state: State) -> TerminalProgress { .none }
    package static func subscriptions(_ runtime: Runtime, _ state: State, shown: Bool) -> [Subscription<Action>] {
        []
    }
    package static func statusMessages(_ state: State) -> [(id: String, expired: Action)] { [] }
    package static func isSettled(_ state: State, _ runtime: Runtime, shown: Bool) -> Bool { true }
    package static func stop(_ runtime: Runtime) {}
}

extension DashboardScreen where Runtime == Void {
    package static func makeRuntime(_ world: World, machines: [NamedMachine]) {}
}

extension DashboardScreen where Effect == Never {
    package static func perform(_ effect: Never, on runtime: Runtime, send: Send<Action>) {}
}
