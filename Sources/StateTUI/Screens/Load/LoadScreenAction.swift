import ScreenStates

/// What can happen on the Load screen: the keys, the server's responses and the machine's reports.
public enum LoadScreenAction: Hashable, Sendable {
    /// `r`: refresh.
    case refresh
    /// `f`: make the next response fail (pressed again: not).
    case toggleFailNext
    /// `l`: a response for an earlier request arrives late (after a failure).
    case deliverLateResponse
    /// The simulated server answered.
    case serverResponded(LoadAction)
    /// The load machine's state changed.
    case loadChanged(LoadState)
}
