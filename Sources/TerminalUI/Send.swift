/// The handle effects and subscriptions use to feed actions back to the store, from any thread.
public struct Send<Action: Sendable>: Sendable {
    let queue: ActionQueue<Action>

    /// Queues `action`; the run loop reduces it before its next frame.
    public func callAsFunction(_ action: Action) {
        queue.append(action)
    }
}
