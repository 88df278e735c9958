import SeedModels
import StateMachineKit
import Support

/// The simulated server behind the load screen: answers each request after `latency` on a
/// ``SimulationClock``, with the items or with `offline` when asked to fail. It keeps the reply path of
/// the last request it answered, so ``answerLate()`` can make that request answer once more, late — as a
/// retried or duplicated response does on a real network.
package final class LoadServer: Sendable {
    /// Where responses wait.
    package let scheduler: any SimulationClock
    /// How long a response takes.
    package let latency: Duration
    /// The items a successful response carries.
    package let items: [String]
    private let answered = Locked<(@Sendable (LoadAction) -> Void)?>(nil)

    /// A server answering after `latency` with `items` (seed 002's `["a", "b"]` by default).
    package init(
        scheduler: any SimulationClock, latency: Duration = .milliseconds(200), items: [String] = ["a", "b"]
    ) {
        self.scheduler = scheduler
        self.latency = latency
        self.items = items
    }

    /// The message of a failed response.
    static let failureMessage = "offline"

    /// The items a late response carries.
    package static let lateItems = ["late"]

    /// Answers one request: `reply` gets the succeeded or failed action after the latency.
    package func request(fails: Bool, reply: @escaping @Sendable (LoadAction) -> Void) {
        let items = self.items
        scheduler.schedule(after: latency) { [self] in
            answered.withLock { $0 = reply }
            reply(fails ? .failed(LoadServer.failureMessage) : .succeeded(items))
        }
    }

    /// The last request answered answers again now, with ``lateItems``; false when none has been answered.
    @discardableResult
    package func answerLate() -> Bool {
        guard let reply = answered.withLock({ $0 }) else { return false }
        reply(.succeeded(Self.lateItems))
        return true
    }
}
