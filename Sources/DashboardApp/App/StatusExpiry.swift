import MachineDrivers
import Support
import TerminalUI

/// Status messages clear themselves: while a state shows one (a ``StatusLine``), it asks for a subscription
/// (named for the message's number) whose timer, on the environment's scheduler, sends the action that clears it after ``lifetime``.
/// The store cancels the subscription, timer and all, once no state asks for it (the message was replaced or
/// the screen cleared it earlier); views never sleep and reducers never read a clock.
///
/// The timers say where they are (``isPending(_:)``), so a scripted demo on a manual scheduler knows the
/// world is settled only once every message shown has its timer set and none has fired unseen.
final class StatusExpiry: Sendable {
    /// How long a status message shows.
    static let lifetime: Duration = .seconds(5)

    /// The timers set and not yet fired, by subscription id.
    private let pending = Locked(Set<String>())

    /// The subscription under `id` that sends `action` once ``lifetime`` has passed on `scheduler`.
    func subscription<Action: Sendable>(
        id: String, on scheduler: any SimulationClock, _ action: Action
    ) -> Subscription<Action> {
        Subscription(id: id, { self.once(id: id, on: scheduler) }) { _ in action }
    }

    /// Whether the timer of the subscription `id` is set and has not fired.
    func isPending(_ id: String) -> Bool {
        pending.withLock { $0.contains(id) }
    }

    /// One value after ``lifetime`` on `scheduler`, then the end; the callback is cancelled when the sequence
    /// is.
    private func once(id: String, on scheduler: any SimulationClock) -> AsyncStream<Void> {
        AsyncStream { continuation in
            let work = scheduler.schedule(after: Self.lifetime) {
                self.pending.withLock { _ = $0.remove(id) }
                continuation.yield()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                work.cancel()
                self.pending.withLock { _ = $0.remove(id) }
            }
            pending.withLock { _ = $0.insert(id) }
            scheduler.workSetUp()
        }
    }
}
