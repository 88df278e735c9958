import MachineDrivers

/// Work the dashboard asks for: each screen's effects, scoped to it.
package enum AppEffect: Hashable, Sendable {
    /// An effect of the Transfers screen.
    case transfers(TransfersScreenEffect)
    /// An effect of the Upload screen.
    case upload(UploadScreenEffect)
    /// An effect of the Load screen.
    case load(LoadScreenEffect)
    /// An effect of the Graph screen.
    case graph(GraphScreenEffect)
}
