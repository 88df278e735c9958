import TerminalUI

/// What a demo drives: the real app (its reducer, keymap, view and effect runner) plus the two hooks of its
/// simulated world — connecting the machines' observers to the app, and moving simulated time.
public struct DemoHost<State: Equatable & Sendable, Action: Sendable, Effect: Sendable>: Sendable {
    /// The app, exactly as the dashboard runs it.
    public var app: App<State, Action, Effect>
    /// Connects the machines' observers to `send` (called once, before the first frame).
    public var connect: @Sendable (Send<Action>) -> Void
    /// Lets this much simulated time pass (a ``ManualScheduler``'s `advance(by:)`, a ``TestClock``'s).
    public var advance: @Sendable (Duration) async -> Void
    /// Waits until the simulated world is quiet and reports what changed (called after every step).
    public var settle: @Sendable () async -> Void

    /// A host from its parts.
    public init(
        app: App<State, Action, Effect>, connect: @escaping @Sendable (Send<Action>) -> Void,
        advance: @escaping @Sendable (Duration) async -> Void, settle: @escaping @Sendable () async -> Void = {}
    ) {
        self.app = app
        self.connect = connect
        self.advance = advance
        self.settle = settle
    }
}
