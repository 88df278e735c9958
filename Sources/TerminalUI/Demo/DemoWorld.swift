/// What a ``DemoPlayer`` needs from the world it plays: the app whose own ``Store`` loop the script types
/// into, the simulated time the app's work waits on, and when that work is quiet.
///
/// The player never reaches past this: keys go through the app's keymap, reducer and effects exactly as a
/// person's do, simulated time moves only through ``step(toward:)``, and the state is read only to ask
/// ``isSettled(_:)`` when to take the next step.
public protocol DemoWorld: Sendable {
    /// The app's state.
    associatedtype State: Equatable & Sendable
    /// The app's actions.
    associatedtype Action: Sendable
    /// The app's effects.
    associatedtype Effect: Sendable

    /// The app the demo plays: the same one a person runs.
    var app: App<State, Action, Effect> { get }

    /// The simulated time since the start of the play.
    var now: Duration { get }

    /// Moves simulated time toward `deadline` (time since the start), one due callback at a time: true when a
    /// callback ran (the world must settle before the next), false once time stands at `deadline`.
    func step(toward deadline: Duration) -> Bool

    /// Whether `state` has caught up with the world and the world's work is quiet, so the next step may be
    /// taken.
    func isSettled(_ state: State) -> Bool

    /// Calls `wake` whenever work is scheduled in simulated time (nil stops calling), so a player waiting
    /// for the world to settle looks again.
    func whenScheduled(_ wake: (@Sendable () -> Void)?)

    /// Stops the world's work once the play has ended.
    func stop()
}
