import MachineDrivers
import ScreenStates
import TerminalUI

/// Performs ``UploadEffect``s on the upload owner and feeds refusals back. State changes reach the screen
/// only through the machine's `states()` and records, never from here.
package struct UploadEffectRunner: Sendable {
    /// The owner of the upload and its task.
    package let owner: UploadOwner

    /// A runner for `owner`.
    package init(owner: UploadOwner) {
        self.owner = owner
    }

    /// Performs one effect.
    package func run(_ effect: UploadEffect, send: Send<UploadAction>) {
        if let reason = owner.perform(effect) { send(.refused(reason)) }
    }
}
