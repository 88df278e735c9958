/// A long-lived source of actions: an async sequence (a machine's `states()`, a timer) whose values are
/// mapped to actions for as long as the store runs. By default only the newest value waiting to be reduced
/// is kept, so a producer faster than the screen never piles up work.
public struct Subscription<Action: Sendable>: Sendable {
    private let body: @Sendable (ActionQueue<Action>, Int) async -> Void

    /// Subscribes to `sequence`, turning each value into an action (nil skips the value).
    /// - Parameter newestOnly: keep only the newest mapped action while earlier ones wait (true), or all.
    public init<Values: AsyncSequence & Sendable>(
        _ sequence: Values,
        newestOnly: Bool = true,
        action: @escaping @Sendable (Values.Element) -> Action?
    ) where Values.Element: Sendable {
        body = { queue, slot in
            do {
                for try await value in sequence {
                    if Task.isCancelled { return }
                    guard let mapped = action(value) else { continue }
                    if newestOnly {
                        queue.replaceLatest(slot: slot, with: mapped)
                    } else {
                        queue.append(mapped)
                    }
                }
            } catch {
                // A failing sequence simply ends its subscription; the app sees no more of its values.
            }
        }
    }

    func run(queue: ActionQueue<Action>, slot: Int) async {
        await body(queue, slot)
    }
}
