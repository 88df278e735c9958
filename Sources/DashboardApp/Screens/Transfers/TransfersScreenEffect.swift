import SeedModels

/// Work the Transfers screen asks for; ``TransfersRuntime`` performs it.
package enum TransfersScreenEffect: Hashable, Sendable {
    /// Send row `row`'s machine the first of `events` its transition function applies when the effect meets
    /// it (nothing when none does): a key's intent, judged by the machine, not by the screen's snapshot.
    case send(row: Int, [TransferEvent])
    /// Send every row's machine the first of `events` its transition function applies when the effect meets it.
    case sendAll([TransferEvent])
    /// Tell row `row`'s simulated worker to report its next outcome as a failure.
    case failNextOutcome(row: Int)
}
