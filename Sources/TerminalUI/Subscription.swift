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

/// The store's running tasks (effects and subscriptions), cancelled together when the store stops.
final class TaskBag: Sendable {
    private struct Tasks {
        var next = 0
        var running: [Int: Task<Void, Never>] = [:]
        var finishedEarly: Set<Int> = []
        var isCancelled = false
    }

    private let tasks = Locked(Tasks())

    /// Starts `operation` in a task that is forgotten once it finishes.
    func spawn(_ operation: @escaping @Sendable () async -> Void) {
        let id = tasks.withLock { tasks in
            tasks.next += 1
            return tasks.next
        }
        let task = Task {
            await operation()
            self.finished(id)
        }
        let cancelNow = tasks.withLock { tasks -> Bool in
            if tasks.finishedEarly.remove(id) != nil { return false }
            if tasks.isCancelled { return true }
            tasks.running[id] = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// How many tasks are still running.
    var count: Int { tasks.withLock { $0.running.count } }

    /// Cancels every running task and any started later.
    func cancelAll() {
        let running = tasks.withLock { tasks -> [Task<Void, Never>] in
            tasks.isCancelled = true
            let running = Array(tasks.running.values)
            tasks.running.removeAll()
            return running
        }
        for task in running { task.cancel() }
    }

    private func finished(_ id: Int) {
        tasks.withLock { tasks in
            if tasks.running.removeValue(forKey: id) == nil { tasks.finishedEarly.insert(id) }
        }
    }
}
