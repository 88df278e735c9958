import StateMachineKit

/// Seed 000's `TransferMachine`, running on the engine: `state` and `send` behave exactly as the
/// seed's class, while the engine adds visits, history, observation and reports.
///
/// The engine holds a ``TransferModel`` (the phase plus the request counter and what a failure
/// retains); `state` is its phase. Effects are derived from recorded transitions with
/// ``TransferModel/effects(from:to:)``, or planned ahead with ``TransferModel/plan(_:_:)``.
public typealias TransferMachine = ModelMachine<TransferModel, TransferEvent>

extension ModelMachine where State == TransferModel, Event == TransferEvent {
    /// The current phase.
    public var state: TransferState { engine.state.phase }

    /// The whole current model, request counter included.
    public var model: TransferModel { engine.state }
}
