import ScreenStates

/// Work the Transfers screen asks for; ``TransfersRuntime`` performs it.
package enum TransfersEffect: Hashable, Sendable {
    /// Send `event` to row `row`'s machine.
    case send(row: Int, TransferEvent)
    /// Tell row `row`'s simulated worker to report its next outcome as a failure.
    case failNextOutcome(row: Int)
}
