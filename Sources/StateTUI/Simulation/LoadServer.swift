import ScreenStates

/// The simulated server behind the load screen: answers each request after `latency` on a
/// ``SimulationScheduler``, with the items or with `offline` when asked to fail.
public struct LoadServer: Sendable {
    /// Where responses wait.
    public let scheduler: any SimulationScheduler
    /// How long a response takes.
    public let latency: Duration
    /// The items a successful response carries.
    public let items: [String]

    /// A server answering after `latency` with `items` (seed 002's `["a", "b"]` by default).
    public init(
        scheduler: any SimulationScheduler, latency: Duration = .milliseconds(200), items: [String] = ["a", "b"]
    ) {
        self.scheduler = scheduler
        self.latency = latency
        self.items = items
    }

    /// The message of a failed response.
    public static let failureMessage = "offline"

    /// Answers one request: `respond` gets the succeeded or failed action after the latency.
    public func request(fails: Bool, respond: @escaping @Sendable (LoadAction) -> Void) {
        let items = self.items
        scheduler.schedule(after: latency) {
            respond(fails ? .failed(LoadServer.failureMessage) : .succeeded(items))
        }
    }
}
