import SeedModels
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
    /// A batch of the load machine's change feed: its new records (stale and ignored ones included) and how many it missed.
    case recordsChanged(StateMachine<LoadState, LoadAction>.RecordBatch)
}
