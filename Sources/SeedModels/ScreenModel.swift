import StateMachineKit

/// The three models of the seeds by name, as `statetui replay` and `statetui graph` select them.
public enum ScreenModel: String, CaseIterable, Hashable, Sendable {
    /// Seed 000's transfer: ``TransferMachine``.
    case transfer
    /// Seed 001's upload: ``UploadMachine``.
    case upload
    /// Seed 002's loading screen: ``LoadMachine``.
    case load
}
