import MachineDrivers
import SeedModels
import TerminalUI

/// The Upload screen's edge: the upload owner (the machine and its simulated task). It performs
/// ``UploadScreenEffect``s on the owner and feeds refusals back. State changes reach the screen only through
/// the machine's `states()` and records, never from here.
package struct UploadRuntime: Sendable {
    /// The owner of the upload and its task.
    package let owner: UploadOwner

    /// A runtime for `owner`.
    package init(owner: UploadOwner) {
        self.owner = owner
    }

    /// The machine behind the screen.
    package var machine: UploadMachine { owner.machine }

    /// Whether the task the current visit asks for has begun (a scripted demo waits for it).
    package var isSetUp: Bool { owner.isSetUp }

    /// Performs one effect.
    package func run(_ effect: UploadScreenEffect, send: Send<UploadScreenAction>) {
        if let reason = owner.perform(effect) { send(.refused(reason)) }
    }
}
