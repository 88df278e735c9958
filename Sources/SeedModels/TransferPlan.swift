import StateMachineKit

/// A transfer decision together with the effects to run once it is committed: the transition is
/// what the machine records, the effects are what the driver does (seed 000).
public struct TransferPlan: Equatable, Sendable {
    /// The decision for the event.
    public var transition: Transition<TransferModel, TransferEvent>
    /// The work to perform after committing the transition, in order; empty when there is none.
    public var effects: [TransferEffect]

    /// A decision and its effects.
    public init(_ transition: Transition<TransferModel, TransferEvent>, effects: [TransferEffect] = []) {
        self.transition = transition
        self.effects = effects
    }
}
