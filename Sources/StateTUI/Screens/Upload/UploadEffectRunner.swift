import ScreenStates
import TerminalUI

/// Performs ``UploadEffect``s on the upload owner and feeds refusals back; state changes come through
/// ``connect(_:)``.
public struct UploadEffectRunner: Sendable {
    /// The owner of the upload and its task.
    public let owner: UploadOwner

    /// A runner for `owner`.
    public init(owner: UploadOwner) {
        self.owner = owner
    }

    /// Sends the machine's state to `send` after every change, starting now.
    public func connect(_ send: Send<UploadAction>) {
        owner.observe { state, _ in send(.uploadChanged(state)) }
    }

    /// Performs one effect.
    public func run(_ effect: UploadEffect, send: Send<UploadAction>) {
        switch effect {
        case .perform(let event):
            if case .invalid(let reason) = owner.perform(event) { send(.refused(reason)) }
        case .setFailNext(let fails):
            owner.setFailNext(fails)
        }
    }
}
