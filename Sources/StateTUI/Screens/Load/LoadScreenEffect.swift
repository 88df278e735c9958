import ScreenStates

/// The work the Load screen asks for; ``LoadEffectRunner`` performs it.
public enum LoadScreenEffect: Hashable, Sendable {
    /// Send this action to the load machine.
    case deliver(LoadAction)
    /// Ask the simulated server for the items; it answers later, failing when `fails`.
    case request(fails: Bool)
}
