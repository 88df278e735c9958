/// A long-lived source of actions: an async sequence (a machine's `states()`, a timer) whose values are
/// mapped to actions for as long as the store runs it. By default only the newest value waiting to be reduced
/// is kept, so a producer faster than the screen never piles up work.
///
/// A subscription an app asks for from its state (``App/subscribe``) has an ``id``: the store starts it when
/// a state first asks for that id and cancels it when a state no longer does, so a screen can listen only
/// while it is shown. Such a subscription makes its sequence when it starts, not when it is described.
public struct Subscription<Action: Sendable>: Sendable {
    /// What the store knows the subscription by; two subscriptions with one id are the same one.
    public let id: String
    /// Whether only the newest mapped action is kept while earlier ones wait.
    let newestOnly: Bool
    /// Runs the sequence, handing each mapped action to its argument.
    private let body: @Sendable (@escaping @Sendable (Action) -> Void) async -> Void

    /// Subscribes to `sequence`, turning each value into an action (nil skips the value).
    /// - Parameter newestOnly: keep only the newest mapped action while earlier ones wait (true), or all.
    public init<Values: AsyncSequence & Sendable>(
        _ sequence: Values,
        newestOnly: Bool = true,
        action: @escaping @Sendable (Values.Element) -> Action?
    ) where Values.Element: Sendable {
        self.init(id: "", newestOnly: newestOnly, { sequence }, action: action)
    }

    /// Subscribes, under `id`, to the sequence `makeSequence` makes once the store starts the subscription.
    /// - Parameter newestOnly: keep only the newest mapped action while earlier ones wait (true), or all.
    public init<Values: AsyncSequence & Sendable>(
        id: String,
        newestOnly: Bool = true,
        _ makeSequence: @escaping @Sendable () -> Values,
        action: @escaping @Sendable (Values.Element) -> Action?
    ) where Values.Element: Sendable {
        self.id = id
        self.newestOnly = newestOnly
        body = { deliver in
            do {
                for try await value in makeSequence() {
                    if Task.isCancelled { return }
                    guard let mapped = action(value) else { continue }
                    deliver(mapped)
                }
            } catch {
                // A failing sequence simply ends its subscription; the app sees no more of its values.
            }
        }
    }

    private init(
        id: String, newestOnly: Bool, body: @escaping @Sendable (@escaping @Sendable (Action) -> Void) async -> Void
    ) {
        self.id = id
        self.newestOnly = newestOnly
        self.body = body
    }

    /// The same subscription delivering `transform` of each action: how an app embeds a part's subscriptions
    /// in its own action type.
    public func map<Parent: Sendable>(_ transform: @escaping @Sendable (Action) -> Parent) -> Subscription<Parent> {
        let body = body
        return Subscription<Parent>(id: id, newestOnly: newestOnly) { deliver in
            await body { deliver(transform($0)) }
        }
    }

    func run(queue: ActionQueue<StoreInput<Action>>, slot: Int) async {
        if newestOnly {
            await body { queue.replaceLatest(slot: slot, with: .action($0)) }
        } else {
            await body { queue.append(.action($0)) }
        }
    }
}
