/// The handle effects and subscriptions use to feed actions back to the store, from any thread.
public struct Send<Action: Sendable>: Sendable {
    private let deliver: @Sendable (Action) -> Void

    init(queue: ActionQueue<StoreInput<Action>>) {
        deliver = { queue.append(.action($0)) }
    }

    /// A handle that passes every action to `deliver`: for runners other than ``Store`` (a scripted demo
    /// that reduces actions itself, in order, so its frames are reproducible) and for tests.
    public init(_ deliver: @escaping @Sendable (Action) -> Void) {
        self.deliver = deliver
    }

    /// Queues `action`; the run loop reduces it before its next frame.
    public func callAsFunction(_ action: Action) {
        deliver(action)
    }
}
