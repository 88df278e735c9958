/// Work the dashboard asks for: each screen's effects, scoped to it.
public enum AppEffect: Hashable, Sendable {
    /// An effect of the Transfers screen.
    case transfers(TransfersEffect)
}
