import ScreenStates
import StateMachineKit

/// What can happen on the Load screen: the keys and what the load machine delivers.
package enum LoadScreenAction: Hashable, Sendable {
    /// `r`: refresh.
    case refresh
    /// `f`: make the next response fail (pressed again: not).
    case toggleFailNext
    /// `l`: the last answered request answers again, late (after a failure).
    case deliverLateResponse
    /// The load machine's `states()` delivered this state.
    case loadChanged(LoadState)
    /// The load machine's records now (stale and ignored ones included).
    case recordsChanged([StateMachine<LoadState, LoadAction>.Record])
}
